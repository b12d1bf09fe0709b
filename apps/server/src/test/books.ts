import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

/** An organization's balance as stored, an exact decimal string. */
export async function balanceOf(db: Kysely<DB>, organizationId: string): Promise<string> {
  const row = await db
    .selectFrom('organization_billing_settings')
    .select('credit_balance')
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return row.credit_balance;
}

/** Every credit in the system: only adjustments, consumption and refunds may change it. */
export async function creditsInSystem(db: Kysely<DB>): Promise<string> {
  const { rows } = await sql<{ s: string }>`select coalesce(sum(credit_balance), 0)::text as s from organization_billing_settings`.execute(
    db,
  );
  return rows[0]!.s;
}

/** How many ledger entries there are: a refused movement adds none. */
export async function ledgerEntryCount(db: Kysely<DB>): Promise<number> {
  return (await db.selectFrom('credit_ledger_entries').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n;
}
