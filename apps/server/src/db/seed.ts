import type { Kysely, Transaction } from 'kysely';
import { API_SCOPES, rolesForOrgType, type OrgType } from '@console/domain';
import type { DB } from './schema.ts';
import { generateKey } from '../lib/api-key.ts';
import { writeAudit } from '../lib/audit.ts';
import type { SecretSealer } from '../lib/sealer.ts';
import { seedMfaAdmin, type SeededMfaAdmin } from './seed-mfa-admin.ts';
import { seedSso, type SeededSso } from './seed-sso.ts';

export { DEMO_MFA_ADMIN_EMAIL } from './seed-mfa-admin.ts';
import { generatePassword, hashPassword } from '../lib/secrets.ts';
import { DEMO_ACTIVATIONS } from './seed-demo-activations.ts';
import { DEMO_AGENT_TYPES, DEMO_TREE, demoBookPrices, type DemoOrg } from './seed-demo-data.ts';

export { DEMO_ACTIVATIONS, type DemoActivation } from './seed-demo-activations.ts';
export {
  DEMO_AGENT_TYPES,
  DEMO_BOOK_DAYS_AGO,
  DEMO_PRICE_BOOKS,
  demoBookPrices,
  type DemoAgentType,
  type DemoPriceBook,
} from './seed-demo-data.ts';

const DEMO_DOMAIN = 'demo.example.com';

/** The demo's API key: the house's, so it reaches every demo organization. */
const DEMO_KEY = { name: 'Demo runtime', scopes: [...API_SCOPES] };

export const DAY_MS = 86_400_000;

export interface DemoSignIn {
  email: string;
  role: string;
  organization: string;
}

export class DemoAlreadySeededError extends Error {}

/** A demo organization as created, parents before their children. */
export interface DemoOrganization {
  id: string;
  name: string;
  type: OrgType;
  parentId: string;
  agentLimit: number;
  credits: DemoOrg['credits'];
}

export interface SeededDemo {
  password: string;
  signIns: DemoSignIn[];
  house: { id: string; name: string };
  /** The house's first admin, who stands for the demo's writes (created_by). */
  houseAdminId: string | null;
  organizations: DemoOrganization[];
  /** Agent type ids by code. */
  agentTypes: Map<string, string>;
  activations: number;
  /** The demo key: the whole secret is here only; the database keeps its hash. */
  apiKey: { secret: string; prefix: string; organization: string };
  /** The admin with a confirmed authenticator app and its secret (base32), when the seed was given the sealer. */
  mfaAdmin: SeededMfaAdmin | null;
  /** The organization whose people sign in through the local demo provider, when the seed was given its sealer. */
  sso: SeededSso | null;
}

/**
 * Adds the demo hierarchy under the first house, and a user of every role of each type
 * (in the first organization of that type), all sharing one generated password; the agent
 * catalog with prices older than any demo usage, the activations of DEMO_ACTIVATIONS as their
 * runtimes last reported them, and an API key of the house with every scope. One
 * transaction: credits and usage are added afterwards by whoever owns those rules.
 */
export async function seedDemo(
  db: Kysely<DB>,
  options: {
    now?: Date;
    /** Seals the demo admin's authenticator app secret as the server does (its TOTP key); without it, no such admin. */
    totpSealer?: SecretSealer;
    /** Seals the demo provider's client secret as the server does; without it, no provider. */
    identitySealer?: SecretSealer;
  } = {},
): Promise<SeededDemo> {
  const now = options.now ?? new Date();
  const before = (ms: number) => new Date(now.getTime() - ms);
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
    const already = await trx.selectFrom('users').select('id').where('email', 'like', `%@${DEMO_DOMAIN}`).limit(1).executeTakeFirst();
    if (already) throw new DemoAlreadySeededError('The demo data is already in this database.');
    const houseAdmin = await trx
      .selectFrom('users')
      .select('id')
      .where('organization_id', '=', house.id)
      .where('role', '=', 'house_admin')
      .where('deleted_at', 'is', null)
      .orderBy('created_at')
      .limit(1)
      .executeTakeFirst();
    const houseAdminId = houseAdmin?.id ?? null;

    await trx
      .updateTable('organization_billing_settings')
      .set({ activated_agent_limit: 100 })
      .where('organization_id', '=', house.id)
      .execute();

    const firstOfType = new Map<OrgType, { id: string; name: string }>([['house', house]]);
    const organizations: DemoOrganization[] = [];
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
      organizations.push({
        id: row.id,
        name: org.name,
        type: org.type,
        parentId: parent.id,
        agentLimit: org.agentLimit,
        credits: org.credits,
      });
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

    // The admin with an authenticator app, confirmed: a sign-in asks for a code from it.
    const mfaAdmin = options.totpSealer ? await seedMfaAdmin(trx, { organizations, passwordHash, sealer: options.totpSealer, now }) : null;
    // Single sign-on through a provider on this machine, for one super agency.
    const sso = options.identitySealer ? await seedSso(trx, { organizations, sealer: options.identitySealer, houseAdminId }) : null;

    const agentTypes = new Map<string, string>();
    for (const type of DEMO_AGENT_TYPES) {
      const row = await trx
        .insertInto('agent_types')
        .values({
          code: type.code,
          name: type.name,
          description: type.description,
          kind: type.kind,
          unit: type.unit,
          created_by: houseAdminId,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      agentTypes.set(type.code, row.id);
      await trx
        .insertInto('agent_prices')
        .values(
          type.prices.map((p) => ({
            agent_type_id: row.id,
            effective_from: before(p.daysAgo * DAY_MS),
            price: p.price,
            created_by: houseAdminId,
          })),
        )
        .execute();
    }

    const orgIds = new Map(organizations.map((o) => [o.name, o.id]));
    // The price books, set by each seller's first admin where the demo has one (else the house's).
    for (const row of demoBookPrices()) {
      const sellerId = orgIds.get(row.seller)!;
      const admin = await trx
        .selectFrom('users')
        .select('id')
        .where('organization_id', '=', sellerId)
        .where('role', 'like', '%admin')
        .orderBy('created_at')
        .limit(1)
        .executeTakeFirst();
      await trx
        .insertInto('organization_prices')
        .values({
          organization_id: sellerId,
          agent_type_id: agentTypes.get(row.agent)!,
          price: row.price,
          effective_from: before(row.daysAgo * DAY_MS),
          created_by: admin?.id ?? houseAdminId,
        })
        .execute();
    }
    await trx
      .insertInto('agent_activations')
      .values(
        DEMO_ACTIVATIONS.map((a) => ({
          organization_id: orgIds.get(a.organization)!,
          agent_type_id: agentTypes.get(a.agent)!,
          status: a.status,
          health_score: a.health,
          last_active_at: before(a.lastActiveMinutesAgo * 60_000),
          activated_at: before(a.activatedDaysAgo * DAY_MS),
          activated_by: houseAdminId,
        })),
      )
      .execute();

    // As the API key service makes a key: a fresh prefix and secret, only the hash stored.
    const made = generateKey();
    const key = await trx
      .insertInto('api_keys')
      .values({
        organization_id: house.id,
        name: DEMO_KEY.name,
        prefix: made.prefix,
        secret_hash: made.hash,
        scopes: DEMO_KEY.scopes,
        created_by: houseAdminId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await writeAudit(trx, {
      actorUserId: null,
      organizationId: house.id,
      action: 'api_key.create',
      targetType: 'api_key',
      targetId: key.id,
      details: { name: DEMO_KEY.name, prefix: made.prefix, scopes: DEMO_KEY.scopes },
    });

    return {
      password,
      signIns,
      house,
      houseAdminId,
      organizations,
      agentTypes,
      activations: DEMO_ACTIVATIONS.length,
      apiKey: { secret: made.key, prefix: made.prefix, organization: house.name },
      mfaAdmin,
      sso,
    };
  });
}
