import { sql, type Kysely } from 'kysely';
import type { DB } from './db/schema.ts';
import type { SeededDemo } from './db/seed.ts';

const DAY_MS = 86_400_000;

/** The demo's promotional grant: who receives it, for which agent, how much, and in how many days it expires. */
export const DEMO_GRANT = {
  organization: 'Acme Dental',
  agent: 'voice-receptionist',
  amount: '50.00',
  priority: 50,
  expiresInDays: 3,
} as const;

export interface DemoGrant {
  organization: string;
  from: string;
  agent: string;
  amount: string;
  expiresAt: string;
}

/**
 * A promotional grant, as a parent gives one: DEMO_GRANT.amount credits from Acme Dental's
 * parent, for its voice receptionist only, drawn before its other credits (priority 50) and
 * expiring DEMO_GRANT.expiresInDays days from now, so the console shows a balance in parts,
 * an expiry on the balance card and the dashboard's Expiring soon list. Posted through the
 * one ledger writer, as an allocation with terms.
 */
export async function seedDemoGrant(db: Kysely<DB>, seeded: SeededDemo, now: Date): Promise<DemoGrant> {
  const tenant = seeded.organizations.find((o) => o.name === DEMO_GRANT.organization)!;
  const parent = seeded.organizations.find((o) => o.id === tenant.parentId)!;
  const expiresAt = new Date(now.getTime() + DEMO_GRANT.expiresInDays * DAY_MS).toISOString();
  const terms = {
    granted_by: parent.id,
    expires_at: expiresAt,
    priority: DEMO_GRANT.priority,
    agent_type_ids: [seeded.agentTypes.get(DEMO_GRANT.agent)!],
  };
  const notes = 'Promotional credits for the voice receptionist';
  await sql`
    select 1 from ledger_post(gen_random_uuid(), ${seeded.houseAdminId}::uuid, true, array[${parent.id}, ${tenant.id}]::uuid[],
      array[${`-${DEMO_GRANT.amount}`}, ${DEMO_GRANT.amount}]::numeric[], array['allocation_sent', 'allocation_received'],
      array[${JSON.stringify({ notes, to_org_id: tenant.id, to_org_name: tenant.name })}::jsonb,
            ${JSON.stringify({ notes, from_org_id: parent.id, from_org_name: parent.name })}::jsonb],
      p_terms => array[null, ${JSON.stringify(terms)}::jsonb])`.execute(db);
  return { organization: tenant.name, from: parent.name, agent: DEMO_GRANT.agent, amount: DEMO_GRANT.amount, expiresAt };
}
