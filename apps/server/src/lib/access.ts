import { sql } from 'kysely';
import type { Executor } from '../db/schema.ts';

/**
 * Ends the account's open sessions (all, or all but the caller's own), so a changed or reset
 * password, or a deactivation, leaves no refresh token that still works. Answers how many ended.
 */
export async function revokeSessions(executor: Executor, userId: string, reason: string, exceptSessionId?: string): Promise<number> {
  let query = executor
    .updateTable('refresh_sessions')
    .set({ revoked_at: sql`now()`, revoked_reason: reason })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (exceptSessionId) query = query.where('id', '<>', exceptSessionId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** A new password (or the end of the account's access) voids every reset link still unused. */
export async function voidResetLinks(executor: Executor, userId: string) {
  await executor
    .updateTable('one_time_tokens')
    .set({ used_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('purpose', '=', 'password_reset')
    .where('used_at', 'is', null)
    .execute();
}
