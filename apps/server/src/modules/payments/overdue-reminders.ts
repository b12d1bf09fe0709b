import { sql } from 'kysely';
import { OVERDUE_REMINDERS_MAX, OVERDUE_REMINDER_EVERY_DAYS, toCents, fromCents, todayUtc } from '@console/domain';
import { activeAdmins } from '../../lib/admins.ts';
import type { MailingJobOptions } from '../../lib/mailing-job.ts';
import { startPollLoop } from '../../lib/poll-loop.ts';
import { invoiceEvent, m, type LockedInvoice } from './queries.ts';

/** Invoices are looked at every `pollMs` (default 5 minutes). */
export type OverdueReminderOptions = MailingJobOptions;

/** Invoices taken in one transaction. */
const BATCH = 100;
/** How long closing the app waits for a batch under way. */

type Candidate = LockedInvoice & { last_n: number | null };

/**
 * The background sender of overdue reminders. An invoice neither paid in full nor void gets its
 * first reminder on its due date (UTC), then one every OVERDUE_REMINDER_EVERY_DAYS days after the
 * last one, OVERDUE_REMINDERS_MAX at most; each is mailed to the billed child's active admins, and
 * the first also writes the webhook event `invoice.overdue`. Each reminder is a row of
 * `invoice_reminders` keyed by (invoice, n), inserted `on conflict do nothing` in the same
 * transaction as its mails and event: however many processes look, the nth goes out once. The
 * invoices are taken with their rows locked (`skip locked`: processes share them), the lock a
 * payment takes too, so a payment and its reminder never cross.
 */
export function createOverdueReminders({ db, mailer, logger, pollMs = 300_000, now = () => new Date() }: OverdueReminderOptions) {
  /** Sends one batch of due reminders; answers how many invoices were looked at. */
  async function sendDue(): Promise<number> {
    const clock = now();
    const today = todayUtc(clock);
    return db.transaction().execute(async (trx) => {
      const { rows } = await sql<Candidate>`
        select i.id, i.seller_id, s.org_type as seller_type, s.name as seller_name, i.buyer_id, b.name as buyer_name, i.kind,
          i.number_text, to_char(i.period, 'YYYY-MM') as period, i.due_on::text as due_on, i.currency, i.total::text as total,
          false as voided, r.n as last_n
        from invoices i
        join organizations s on s.id = i.seller_id
        join organizations b on b.id = i.buyer_id and b.deleted_at is null
        left join lateral (
          select x.n, x.sent_at from invoice_reminders x where x.invoice_id = i.id order by x.n desc limit 1
        ) r on true
        where i.kind = 'invoice' and i.voided_at is null and i.due_on <= ${today}::date
          and i.total > (select coalesce(sum(p.amount), 0) from invoice_payments p where p.invoice_id = i.id and p.reversed_at is null)
          and (r.n is null or (r.n < ${OVERDUE_REMINDERS_MAX}
            and (r.sent_at at time zone 'UTC')::date + ${OVERDUE_REMINDER_EVERY_DAYS}::int <= ${today}::date))
        order by i.due_on, i.id
        limit ${BATCH}
        for update of i skip locked`.execute(trx);
      if (rows.length === 0) return 0;
      // Read again under the locks: a payment committed after the statement above began is counted.
      const paid = await trx
        .selectFrom('invoice_payments')
        .select(['invoice_id', sql<string>`sum(amount)::numeric(18, 2)::text`.as('paid')])
        .where(
          'invoice_id',
          'in',
          rows.map((row) => row.id),
        )
        .where('reversed_at', 'is', null)
        .groupBy('invoice_id')
        .execute();
      const paidOf = new Map(paid.map((row) => [row.invoice_id, row.paid]));
      const admins = await activeAdmins(trx, [...new Set(rows.map((row) => row.buyer_id))]);
      let sent = 0;
      for (const invoice of rows) {
        const owed = toCents(invoice.total) - toCents(paidOf.get(invoice.id) ?? '0.00');
        if (owed <= 0n) continue;
        const n = (invoice.last_n ?? 0) + 1;
        const taken = await trx
          .insertInto('invoice_reminders')
          .values({ invoice_id: invoice.id, n, sent_at: clock.toISOString() })
          .onConflict((oc) => oc.columns(['invoice_id', 'n']).doNothing())
          .returning('n')
          .executeTakeFirst();
        if (!taken) continue;
        const outstanding = fromCents(owed);
        const subject = m.overdueSubject(invoice.number_text);
        const text = m.overdue(invoice.seller_name, invoice.number_text, outstanding, invoice.currency, invoice.due_on);
        for (const admin of admins.filter((row) => row.organization_id === invoice.buyer_id)) {
          await mailer.send({ to: admin.email, subject, text }, trx);
        }
        if (n === 1) await invoiceEvent(trx, 'invoice.overdue', invoice, outstanding);
        sent += 1;
      }
      if (sent > 0) logger.info({ reminders: sent }, 'overdue reminders mailed');
      return rows.length;
    });
  }

  const loop = startPollLoop({
    pollMs,
    logger,
    // The database is away, or a mail could not be stored: the reminders are still due at the next look.
    what: 'overdue reminders could not be sent',
    async pass(closed) {
      while (!closed() && (await sendDue()) === BATCH) {
        // a full batch: more may be due
      }
    },
  });

  return { sendDue, close: loop.close };
}

export type OverdueReminders = ReturnType<typeof createOverdueReminders>;
