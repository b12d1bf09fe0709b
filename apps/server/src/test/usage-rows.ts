import { sql, type Kysely } from 'kysely';
import { API_SCOPES, type ApiScope } from '@console/domain';
import type { DB } from '../db/schema.ts';
import { generateKey } from '../lib/api-key.ts';

/**
 * Rows written straight to the database to arrange a usage test (the catalog, activations
 * and keys have their own routes and tests): the API under test reads them.
 */

export const ago = (ms: number) => new Date(Date.now() - ms);
export const DAY = 86_400_000;

/** An agent type whose price is in force since `since` (40 days ago unless told). */
export async function insertAgentType(db: Kysely<DB>, code: string, price = '1.0000', since = ago(40 * DAY)) {
  const type = await db
    .insertInto('agent_types')
    .values({ code, name: `Agent ${code}`, kind: 'assistant', unit: 'run' })
    .returning(['id', 'code'])
    .executeTakeFirstOrThrow();
  await addPrice(db, type.id, price, since);
  return type;
}

/** A price in force from `since` on. */
export async function addPrice(db: Kysely<DB>, agentTypeId: string, price: string, since: Date) {
  await db.insertInto('agent_prices').values({ agent_type_id: agentTypeId, price, effective_from: since }).execute();
}

/** A live activation of an agent type for an organization. */
export async function activate(db: Kysely<DB>, organizationId: string, agentTypeId: string) {
  const row = await db
    .insertInto('agent_activations')
    .values({ organization_id: organizationId, agent_type_id: agentTypeId, status: 'active' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** An API key of an organization: the whole key (for the bearer) and its row's id. */
export async function insertApiKey(
  db: Kysely<DB>,
  organizationId: string,
  options: { scopes?: ApiScope[]; name?: string; revoked?: boolean } = {},
) {
  const made = generateKey();
  const row = await db
    .insertInto('api_keys')
    .values({
      organization_id: organizationId,
      name: options.name ?? 'runtime',
      prefix: made.prefix,
      secret_hash: made.hash,
      scopes: options.scopes ?? [...API_SCOPES],
      ...(options.revoked && { revoked_at: new Date() }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, key: made.key, prefix: made.prefix };
}

/** Credits for an organization, posted like an adjustment, so the books still reconcile. */
export async function fund(db: Kysely<DB>, organizationId: string, amount: string) {
  await sql`
    select 1 from ledger_post(gen_random_uuid(), null, false, array[${organizationId}::uuid], array[${amount}::numeric],
      array['adjustment_increase'], array['{"reason":"test funding"}'::jsonb])`.execute(db);
}

export async function balanceOf(db: Kysely<DB>, organizationId: string): Promise<string> {
  const row = await db
    .selectFrom('organization_billing_settings')
    .select('credit_balance')
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return row.credit_balance;
}

/** Exact sums of decimal strings, in hundredths: for comparing charges without floats. */
export function cents(amount: string): bigint {
  const [whole, fraction = ''] = amount.replace('-', '').split('.');
  const value = BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
  return amount.startsWith('-') ? -value : value;
}
