import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../../db/schema.ts';
import { startPollLoop } from '../../lib/poll-loop.ts';
import type { Mailer } from '../../lib/mail.ts';
import { issueDraft } from './issue.ts';

export interface MonthlyIssuerOptions {
  db: Kysely<DB>;
  mailer: Mailer;
  /** The console's address, for the link in each mail. */
  appUrl: string;
  logger: FastifyBaseLogger;
  /** How often it looks for months to close (default 60 s). */
  pollMs?: number;
  /** The clock the loop reads (tests move it to another month). */
  clock?: () => Date;
}

/** How long closing the app waits for a pass under way. */
/**
 * A pass this long after the month began is final for that month: a movement dated just before
 * the first instant may still have been committing at it, so earlier passes are repeated.
 */
const SETTLE_MS = 10 * 60_000;

/** The first instant (UTC) of the month of `now`, and the month before it ("YYYY-MM"). */
export function monthCutoff(now: Date): { cutoff: Date; period: string } {
  const cutoff = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const previous = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return { cutoff, period: previous.toISOString().slice(0, 7) };
}

/**
 * The monthly issuer: from the first instant of a month (UTC), every seller with billing
 * details issues each child's entries dated before it, as one invoice (and credit note) of the
 * month it closes. One transaction per (seller, child), taking the seller's counter with `skip
 * locked`: a seller another process (or an admin issuing at once) is issuing is left for the
 * next look instead of waited for, and the entries it took are on its lines by then, so each
 * entry is issued once whichever process gets there (the unique entry_id backs it). Looks
 * every pollMs; once a pass has found nothing left of a month (and nothing changed in billing
 * details since), it looks again only when the month or a seller's details change.
 */
export function createMonthlyIssuer({ db, mailer, appUrl, logger, pollMs = 60_000, clock = () => new Date() }: MonthlyIssuerOptions) {
  let closed = false;
  /** The month whose issuing is complete, and the billing details as they were then. */
  let settled: { cutoff: number; details: string } | null = null;

  /**
   * Issues every draft due at `now`; answers how many documents were issued and whether some
   * seller was left because another transaction held it.
   */
  async function issueDue(now: Date = clock()): Promise<{ issued: number; busy: boolean }> {
    const { cutoff, period } = monthCutoff(now);
    const sellers = await db
      .selectFrom('billing_details as d')
      .innerJoin('organizations as o', 'o.id', 'd.organization_id')
      .select('o.id')
      .where('o.deleted_at', 'is', null)
      .orderBy('o.id')
      .execute();
    let issued = 0;
    let busy = false;
    for (const seller of sellers) {
      if (closed) break;
      const { rows: children } = await sql<{ id: string }>`
        select c.id from organizations c
        where c.parent_org_id = ${seller.id}
          and exists (select 1 from invoice_billable(${seller.id}::uuid, c.id, ${cutoff.toISOString()}::timestamptz))
        order by c.id`.execute(db);
      for (const child of children) {
        try {
          const documents = await db.transaction().execute((trx) =>
            issueDraft(
              trx,
              { mailer, appUrl },
              {
                sellerId: seller.id,
                buyerId: child.id,
                before: cutoff,
                period,
                actorUserId: null,
                info: null,
                skipLocked: true,
              },
            ),
          );
          if (documents === null) {
            busy = true;
            break;
          }
          issued += documents.length;
        } catch (error) {
          busy = true;
          logger.warn(
            {
              seller: seller.id,
              buyer: child.id,
              error: error instanceof Error ? error.message.slice(0, 200) : String(error).slice(0, 200),
            },
            'monthly invoices could not be issued',
          );
        }
      }
    }
    if (issued > 0) logger.info({ issued, period }, 'monthly invoices issued');
    return { issued, busy };
  }

  /** What would make a settled month worth another look: a seller's details set or changed. */
  async function detailsStamp(): Promise<string> {
    const row = await db
      .selectFrom('billing_details')
      .select([sql<number>`count(*)::int`.as('n'), sql<string>`coalesce(max(updated_at)::text, '')`.as('latest')])
      .executeTakeFirstOrThrow();
    return `${row.n}/${row.latest}`;
  }

  const loop = startPollLoop({
    pollMs,
    logger,
    what: 'monthly invoices could not be looked for',
    async pass() {
      const now = clock();
      const { cutoff } = monthCutoff(now);
      const details = await detailsStamp();
      if (settled && settled.cutoff === cutoff.getTime() && settled.details === details) return;
      const { busy } = await issueDue(now);
      if (!busy && now.getTime() - cutoff.getTime() >= SETTLE_MS) settled = { cutoff: cutoff.getTime(), details };
    },
  });

  return {
    issueDue,
    /** Stops looking, letting a pass under way finish its transaction (the app calls it when it closes). */
    async close() {
      closed = true;
      await loop.close();
    },
  };
}

export type MonthlyIssuer = ReturnType<typeof createMonthlyIssuer>;
