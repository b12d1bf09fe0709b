import { sql } from 'kysely';
import type { Executor } from '../db/schema.ts';

/** The advisory lock class of an organization's provisioning: its tokens and its SCIM changes. */
const SCIM_LOCK_CLASS = 0x5c1d;

/**
 * Until the transaction ends, the organization's other token changes and SCIM writes wait:
 * the count of live tokens cannot be passed by two creations at once, and two changes of
 * group membership cannot compute a person's role from each other's half-done state.
 */
export async function lockOrganizationScim(trx: Executor, organizationId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${sql.lit(SCIM_LOCK_CLASS)}, hashtext(${organizationId}::text))`.execute(trx);
}
