import type { Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';
import { lockKeyed } from './locks.ts';

/**
 * Until the transaction ends, the organization's other token changes and SCIM writes wait:
 * the count of live tokens cannot be passed by two creations at once, and two changes of
 * group membership cannot compute a person's role from each other's half-done state.
 */
export async function lockOrganizationScim(trx: Transaction<DB>, organizationId: string): Promise<void> {
  await lockKeyed(trx, 'scim', organizationId);
}
