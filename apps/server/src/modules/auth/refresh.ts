import { sql } from 'kysely';
import { MESSAGES } from '@console/domain';
import { UnauthorizedError } from '../../lib/errors.ts';
import { hashToken } from '../../lib/secrets.ts';
import { REFRESH_REUSE_GRACE_SECONDS, type AuthDeps, type IssuedSession, type SessionIssuer } from './queries.ts';

export function createRefresh({ db, sessions: { issue } }: Pick<AuthDeps, 'db'> & { sessions: SessionIssuer }) {
  /**
   * Rotates a refresh token. A token presented again within the grace period after its
   * rotation (two tabs refreshing at once) gets a new token of the same session; later,
   * it means the token leaked or was replayed, and the whole session is revoked, so the
   * thief's copy dies too.
   */
  async function refresh(refreshToken: string | undefined): Promise<IssuedSession> {
    if (!refreshToken) throw new UnauthorizedError(MESSAGES.auth.sessionExpired, 'no_refresh_token');
    const result = await db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('refresh_tokens as t')
        .innerJoin('refresh_sessions as s', 's.id', 't.session_id')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .innerJoin('organizations as o', 'o.id', 'u.organization_id')
        .select([
          't.used_at',
          sql<boolean>`t.used_at > now() - ${REFRESH_REUSE_GRACE_SECONDS} * interval '1 second'`.as('within_grace'),
          's.id as session_id',
          's.user_id',
          's.revoked_at',
          's.method',
          's.expires_at',
          'u.status',
          'u.deleted_at',
          'o.deleted_at as org_deleted_at',
        ])
        .where('t.token_hash', '=', hashToken(refreshToken))
        .forUpdate('t')
        .executeTakeFirst();
      if (!row) return null;
      if (row.used_at && !row.within_grace) {
        await trx
          .updateTable('refresh_sessions')
          .set({ revoked_at: sql`now()`, revoked_reason: 'refresh token reused' })
          .where('id', '=', row.session_id)
          .where('revoked_at', 'is', null)
          .execute();
        return 'reused' as const;
      }
      if (row.revoked_at || new Date(row.expires_at) < new Date()) return null;
      if (row.status !== 'active' || row.deleted_at || row.org_deleted_at) return null;
      // Within the grace period the token keeps its first use time, so the period never grows.
      if (!row.used_at) {
        await trx.updateTable('refresh_tokens').set({ used_at: sql`now()` }).where('token_hash', '=', hashToken(refreshToken)).execute();
      }
      await trx.updateTable('refresh_sessions').set({ last_used_at: sql`now()` }).where('id', '=', row.session_id).execute();
      return issue(trx, row.user_id, row.session_id, row.method);
    });
    if (result === null || result === 'reused') {
      throw new UnauthorizedError(MESSAGES.auth.sessionExpired, 'invalid_refresh_token');
    }
    return result;
  }

  return { refresh };
}
