import type { Kysely, Transaction } from 'kysely';
import { rolesForOrgType, type OrgType } from '@console/domain';
import type { DB } from './schema.ts';
import { generatePassword, hashPassword } from '../lib/secrets.ts';

const DEMO_DOMAIN = 'demo.example.com';

interface DemoOrg {
  name: string;
  type: OrgType;
  agentLimit: number;
  children?: DemoOrg[];
}

/** Two super agencies, each with agencies and tenants; limits fit inside each parent's. */
const DEMO_TREE: DemoOrg[] = [
  {
    name: 'Northwind Partners',
    type: 'super_agency',
    agentLimit: 40,
    children: [
      {
        name: 'Northwind Digital',
        type: 'agency',
        agentLimit: 20,
        children: [
          { name: 'Acme Dental', type: 'tenant', agentLimit: 8 },
          { name: 'Harbor Realty', type: 'tenant', agentLimit: 6 },
        ],
      },
      {
        name: 'Northwind Retail',
        type: 'agency',
        agentLimit: 12,
        children: [{ name: 'Corner Bakery', type: 'tenant', agentLimit: 4 }],
      },
    ],
  },
  {
    name: 'Bluebird Group',
    type: 'super_agency',
    agentLimit: 30,
    children: [
      {
        name: 'Bluebird Health',
        type: 'agency',
        agentLimit: 15,
        children: [
          { name: 'Summit Clinic', type: 'tenant', agentLimit: 5 },
          { name: 'Lakeside Pharmacy', type: 'tenant', agentLimit: 3 },
        ],
      },
    ],
  },
];

export interface DemoSignIn {
  email: string;
  role: string;
  organization: string;
}

export class DemoAlreadySeededError extends Error {}

/**
 * Adds the demo hierarchy under the first house, and a user of every role of each type
 * (in the first organization of that type). All demo users share one generated password.
 */
export async function seedDemo(db: Kysely<DB>): Promise<{ password: string; signIns: DemoSignIn[] }> {
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  return db.transaction().execute(async (trx) => {
    const house = await trx
      .selectFrom('organizations')
      .select(['id', 'name'])
      .where('org_type', '=', 'house')
      .where('deleted_at', 'is', null)
      .orderBy('created_at')
      .limit(1)
      .executeTakeFirst();
    if (!house) throw new Error('No house exists yet: start the server or run db:seed without --demo first.');
    const already = await trx
      .selectFrom('users')
      .select('id')
      .where('email', 'like', `%@${DEMO_DOMAIN}`)
      .limit(1)
      .executeTakeFirst();
    if (already) throw new DemoAlreadySeededError('The demo data is already in this database.');

    await trx
      .updateTable('organization_billing_settings')
      .set({ activated_agent_limit: 100 })
      .where('organization_id', '=', house.id)
      .execute();

    const firstOfType = new Map<OrgType, { id: string; name: string }>([['house', house]]);
    async function create(parent: { id: string; type: OrgType }, org: DemoOrg, tx: Transaction<DB>) {
      const row = await tx
        .insertInto('organizations')
        .values({
          name: org.name,
          org_type: org.type,
          parent_org_id: parent.id,
          parent_org_type: parent.type,
          description: `Demo ${org.type.replace('_', ' ')}`,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await tx
        .insertInto('organization_billing_settings')
        .values({ organization_id: row.id, activated_agent_limit: org.agentLimit })
        .execute();
      if (!firstOfType.has(org.type)) firstOfType.set(org.type, { id: row.id, name: org.name });
      for (const child of org.children ?? []) await create({ id: row.id, type: org.type }, child, tx);
    }
    for (const org of DEMO_TREE) await create({ id: house.id, type: 'house' }, org, trx);

    const signIns: DemoSignIn[] = [];
    for (const [type, org] of firstOfType) {
      for (const role of rolesForOrgType(type)) {
        const email = `${role.replaceAll('_', '.')}@${DEMO_DOMAIN}`;
        const [level] = role.split('_').slice(-1);
        await trx
          .insertInto('users')
          .values({
            email,
            password_hash: passwordHash,
            first_name: `Demo ${level}`,
            last_name: org.name,
            role,
            organization_id: org.id,
          })
          .execute();
        signIns.push({ email, role, organization: org.name });
      }
    }
    return { password, signIns };
  });
}
