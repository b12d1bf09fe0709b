import { sql } from 'kysely';
import { MESSAGES, type AccountSessionList, type EndedSessions } from '@console/domain';
import { revokeSessions } from '../../lib/access.ts';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { NotFoundError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { deviceOf } from './device.ts';
import { ENDED, type AccountDeps } from './queries.ts';

/** A person's own sessions: the live ones listed, one ended, or all but the current one. */
export function createOwnSessions({ db }: Pick<AccountDeps, 'db'>) {
  /** Live sessions (neither ended nor expired), the most recently active first. */
  async function list(caller: Caller): Promise<AccountSessionList> {
    const rows = await db
      .selectFrom('refresh_sessions')
      .select(['id', 'user_agent', 'ip', 'created_at', 'last_used_at'])
      .where('user_id', '=', caller.userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', sql<string>`now()`)
      .orderBy('last_used_at', 'desc')
      .orderBy('id')
      .execute();
    return {
      items: rows.map((row) => ({
        id: row.id,
        device: deviceOf(row.user_agent),
        ip: row.ip,
        started_at: row.created_at,
        last_active_at: row.last_used_at,
        current: row.id === caller.sessionId,
      })),
    };
  }

  /** Ends one live session of the caller's own (404 for another person's, or one already ended). */
  async function endOne(caller: Caller, sessionId: string, client: ClientInfo): Promise<EndedSessions> {
    return db.transaction().execute(async (trx) => {
      const ended = await trx
        .updateTable('refresh_sessions')
        .set({ revoked_at: sql`now()`, revoked_reason: ENDED.byPerson })
        .where('id', '=', sessionId)
        .where('user_id', '=', caller.userId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', sql<string>`now()`)
        .returning('id')
        .executeTakeFirst();
      if (!ended) throw new NotFoundError(MESSAGES.auth.sessionNotFound);
      await auditAction(trx, caller, client, {
        organizationId: caller.organization.id,
        action: 'auth.sessions_ended',
        targetType: 'user',
        targetId: caller.userId,
        details: { count: 1, by: 'self' },
      });
      return { ended: 1 };
    });
  }

  /** Ends every session of the caller's but the one calling. */
  async function endOthers(caller: Caller, client: ClientInfo): Promise<EndedSessions> {
    return db.transaction().execute(async (trx) => {
      const ended = await revokeSessions(trx, caller.userId, ENDED.byPerson, caller.sessionId);
      if (ended > 0) {
        await auditAction(trx, caller, client, {
          organizationId: caller.organization.id,
          action: 'auth.sessions_ended',
          targetType: 'user',
          targetId: caller.userId,
          details: { count: ended, by: 'self' },
        });
      }
      return { ended };
    });
  }

  return { list, endOne, endOthers };
}
