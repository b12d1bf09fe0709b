import type { ApiKeysDeps } from './queries.ts';
import { createCreate } from './create.ts';
import { createEdit } from './edit.ts';
import { createList } from './list.ts';
import { createRevoke } from './revoke.ts';
import { createRoll } from './roll.ts';

/**
 * API keys act for their organization on the machine routes, so only its own admins make,
 * list, edit, roll and revoke them. A secret is answered once, when the key is made or rolled;
 * only its SHA-256 is stored, and neither it nor its hash reaches the audit log.
 *
 * Rules: an end date is in the future and at most `API_KEY_LIFECYCLE.maxLifetimeDays` ahead; a
 * key's own rate limit is at most the house's ceiling (global settings); only live keys (not
 * revoked, not expired) are edited or rolled (422 otherwise); a roll keeps the old secret for
 * 0 to 7 days, and a key keeps one previous secret at most, so a second roll ends the older one.
 * Making, rolling and editing a key count against the organization's and the person's hourly
 * allowance (limits.ts), inside the change's transaction once its checks passed; revoking
 * never waits.
 */
export function createApiKeysService(deps: ApiKeysDeps) {
  const { list } = createList(deps);
  const { create } = createCreate(deps);
  const { update } = createEdit(deps);
  const { roll } = createRoll(deps);
  const { revoke } = createRevoke(deps);
  return { list, create, update, roll, revoke };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
