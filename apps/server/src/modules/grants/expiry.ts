import { sql } from 'kysely';
import { GRANT_EXPIRY_WARNINGS, GRANT_MESSAGES as g } from '@console/domain';
import { activeAdmins } from '../../lib/admins.ts';
import type { MailingJobOptions } from '../../lib/mailing-job.ts';
import { startPollLoop } from '../../lib/poll-loop.ts';

/** Due grants are looked for every `pollMs` (default 30 s). */
export type GrantExpiryOptions = MailingJobOptions;

/** Grants taken in one look. */
const BATCH = 100;

interface Warning {
  id: string;
  organization_id: string;
  organization_name: string;
  remaining: string;
  expires_at: string;
  granted_by_id: string;
  granted_by_name: string;
  days: number;
}

/**
 * The expiry of credit grants and the warnings before it, in every process.
 * - Expiry: each grant due (its instant passed, not yet expired) is expired by
 *   credit_grant_expire in its own transaction, which takes both balance locks and reads the
 *   grant again under them: however many processes look at once, each grant moves once.
 *   Until then nothing can be drawn from it (every draw checks the instant), so a late look
 *   costs no one anything.
 * - Warnings: a grant with more than GRANT_EXPIRY_WARNINGS.minRemaining left is announced 7
 *   days and 1 day before its instant (only the nearer one when both are due at once) to its
 *   organization's admins by mail and to its endpoints as `credits.expiring`. The conditional
 *   update of `warned_days` is what sends it: one process wins it, in the transaction that
 *   queues the mail and the event.
 */
export function createGrantExpiry({ db, mailer, logger, pollMs = 30_000, now = () => new Date() }: GrantExpiryOptions) {
  /** Expires one batch of due grants; answers how many were looked at. */
  async function expireDue(): Promise<number> {
    const at = now().toISOString();
    const { rows } = await sql<{ id: string }>`
      select g.id from credit_grants g
      where g.expired_at is null and g.expires_at <= ${at}::timestamptz
      order by g.expires_at, g.id
      limit ${BATCH}`.execute(db);
    let moved = 0;
    for (const row of rows) {
      const { rows: done } = await sql<{
        result: unknown;
      }>`select credit_grant_expire(${row.id}::uuid, ${at}::timestamptz) as result`.execute(db);
      if (done[0]?.result) moved += 1;
    }
    if (moved > 0) logger.info({ grants: moved }, 'credit grants expired');
    return rows.length;
  }

  /** Sends the warnings due; answers how many were sent. */
  async function warnDue(): Promise<number> {
    const clock = now();
    const at = clock.toISOString();
    const [far, near] = GRANT_EXPIRY_WARNINGS.days;
    return db.transaction().execute(async (trx) => {
      const { rows } = await sql<Warning>`
        update credit_grants g set warned_days = x.days
        from (
          select c.id, d.days
          from credit_grants c
          cross join lateral (
            select case when c.expires_at <= ${at}::timestamptz + make_interval(days => ${near}) then ${near}::int else ${far}::int end as days
          ) d
          where c.expired_at is null and c.expires_at > ${at}::timestamptz
            and c.expires_at <= ${at}::timestamptz + make_interval(days => ${far})
            and c.remaining > ${GRANT_EXPIRY_WARNINGS.minRemaining}::numeric
            and (c.warned_days is null or c.warned_days > d.days)
          order by c.expires_at
          limit ${BATCH}
        ) x, organizations o, organizations gb
        where g.id = x.id and (g.warned_days is null or g.warned_days > x.days)
          and o.id = g.organization_id and o.deleted_at is null and gb.id = g.granted_by
        returning g.id, g.organization_id, o.name as organization_name, g.remaining::numeric(16, 2)::text as remaining,
          to_char(g.expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as expires_at,
          gb.id as granted_by_id, gb.name as granted_by_name, x.days`.execute(trx);
      if (rows.length === 0) return 0;
      const admins = await activeAdmins(trx, [...new Set(rows.map((r) => r.organization_id))]);
      for (const w of rows) {
        const subject = g.expiringMailSubject(w.remaining, w.days);
        const text = g.expiringMailBody(w.organization_name, w.remaining, w.expires_at, w.granted_by_name);
        for (const admin of admins.filter((a) => a.organization_id === w.organization_id)) {
          await mailer.send({ to: admin.email, subject, text }, trx);
        }
        await sql`insert into webhook_events (type, organization_id, data)
          values ('credits.expiring', ${w.organization_id}, ${JSON.stringify({
            grant_id: w.id,
            remaining: w.remaining,
            expires_at: w.expires_at,
            days: w.days,
            granted_by: { id: w.granted_by_id, name: w.granted_by_name },
          })}::jsonb)`.execute(trx);
      }
      logger.info({ warnings: rows.length }, 'credit grant expiry warnings sent');
      return rows.length;
    });
  }

  const loop = startPollLoop({
    pollMs,
    logger,
    // The database is away: the grants stay due, and nothing can be drawn from them meanwhile.
    what: 'credit grants could not be expired',
    async pass(closed) {
      while (!closed() && (await expireDue()) === BATCH) {
        // a full batch: more may be due
      }
      while (!closed() && (await warnDue()) === BATCH) {
        // a full batch: more may be due
      }
    },
  });

  return { expireDue, warnDue, runNow: loop.runNow, close: loop.close };
}

export type GrantExpiry = ReturnType<typeof createGrantExpiry>;
