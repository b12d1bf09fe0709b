import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { pino } from 'pino';
import { MESSAGES, OVERDUE_REMINDERS_MAX, WEBHOOK_EVENT_DATA } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { createMailer } from '../../lib/mail.ts';
import { createOverdueReminders, type OverdueReminders } from './overdue-reminders.ts';
import { insertInvoice, insertPayment } from './test-invoices.ts';

/**
 * Overdue reminders on a clock of the test's own: the first on the due date, one a week after,
 * at most OVERDUE_REMINDERS_MAX, none for an invoice paid or void, and each exactly once however
 * many senders look at the same moment. The app's own sender looks every 5 minutes at the real
 * date; these invoices fall due years from now.
 */
const w = useWorld();
const db = () => w.t.database.db;
const m = MESSAGES.invoices;
const silent = pino({ level: 'silent' });
const senders: OverdueReminders[] = [];
let clock = new Date('2031-01-01T12:00:00.000Z');

function sender(): OverdueReminders {
  const made = createOverdueReminders({
    db: db(),
    mailer: createMailer({ db: db(), smtpUrl: null, logger: silent }),
    logger: silent,
    pollMs: 3_600_000,
    now: () => clock,
  });
  senders.push(made);
  return made;
}

afterAll(async () => {
  await Promise.all(senders.map((s) => s.close()));
});

/** Sets the clock to noon (UTC) of a day and sends what is due then. */
async function on(day: string, using: OverdueReminders[] = [sender()]) {
  clock = new Date(`${day}T12:00:00.000Z`);
  await Promise.all(
    using.map(async (s) => {
      while ((await s.sendDue()) > 0);
    }),
  );
}

const remindersOf = (invoiceId: string) =>
  db().selectFrom('invoice_reminders').select(['n', 'sent_at']).where('invoice_id', '=', invoiceId).orderBy('n').execute();
const mailsAbout = (number: string) =>
  db().selectFrom('outbox').select(['to_address', 'body_text']).where('subject', '=', m.overdueSubject(number)).orderBy('id').execute();
const overdueEvents = (invoiceId: string) =>
  db()
    .selectFrom('webhook_events')
    .select(['organization_id', 'data'])
    .where('type', '=', 'invoice.overdue')
    .where(sql<boolean>`data ->> 'invoice_id' = ${invoiceId}`)
    .execute();

describe('overdue reminders', () => {
  it('the first on the due date with the event, then one a week, at most the maximum', async () => {
    const invoice = await insertInvoice(db(), {
      seller: w.id('A1'),
      buyer: w.id('T1'),
      total: '100.00',
      issuedAt: new Date('2030-12-11T09:00:00.000Z'),
      dueOn: '2031-01-10',
    });
    await insertPayment(db(), { invoiceId: invoice.id, amount: '25.50', paidOn: '2030-12-20' });

    await on('2031-01-09');
    expect(await remindersOf(invoice.id)).toEqual([]);

    await on('2031-01-10');
    expect((await remindersOf(invoice.id)).map((r) => r.n)).toEqual([1]);
    const mails = await mailsAbout(invoice.number);
    expect(mails).toEqual([
      {
        to_address: 'admin@t1.test',
        body_text: expect.stringContaining(m.overdue('Agency One', invoice.number, '74.50', 'USD', '2031-01-10')),
      },
    ]);
    const events = await overdueEvents(invoice.id);
    expect(events).toHaveLength(1);
    expect(events[0]!.organization_id).toBe(w.id('T1'));
    expect(WEBHOOK_EVENT_DATA['invoice.overdue'].parse(events[0]!.data)).toMatchObject({
      invoice_id: invoice.id,
      seller: { id: w.id('A1'), name: 'Agency One' },
      total: '100.00',
      outstanding: '74.50',
      due_on: '2031-01-10',
    });

    // The same day again, and the days before a week has passed: nothing more.
    await on('2031-01-10');
    await on('2031-01-16');
    expect((await remindersOf(invoice.id)).map((r) => r.n)).toEqual([1]);

    await on('2031-01-17');
    expect((await remindersOf(invoice.id)).map((r) => r.n)).toEqual([1, 2]);
    for (const day of ['2031-01-24', '2031-01-31', '2031-02-07', '2031-02-14', '2031-02-21', '2031-03-30', '2032-01-01']) await on(day);
    const sent = await remindersOf(invoice.id);
    expect(sent.map((r) => r.n)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(sent).toHaveLength(OVERDUE_REMINDERS_MAX);
    expect(sent.map((r) => r.sent_at.slice(0, 10))).toEqual([
      '2031-01-10',
      '2031-01-17',
      '2031-01-24',
      '2031-01-31',
      '2031-02-07',
      '2031-02-14',
    ]);
    expect(await mailsAbout(invoice.number)).toHaveLength(OVERDUE_REMINDERS_MAX);
    // The event is written with the first reminder only.
    expect(await overdueEvents(invoice.id)).toHaveLength(1);
  });

  it('a late look sends the first at once and the next a week after it', async () => {
    const invoice = await insertInvoice(db(), { seller: w.id('A1'), buyer: w.id('T2'), total: '10.00', dueOn: '2033-03-01' });
    await on('2033-03-20');
    await on('2033-03-26');
    expect((await remindersOf(invoice.id)).map((r) => r.n)).toEqual([1]);
    await on('2033-03-27');
    expect((await remindersOf(invoice.id)).map((r) => r.n)).toEqual([1, 2]);
  });

  it('none for an invoice paid in full, a void one or a credit note; none more once paid', async () => {
    const paid = await insertInvoice(db(), { seller: w.id('A1'), buyer: w.id('T1'), total: '10.00', dueOn: '2034-05-01' });
    await insertPayment(db(), { invoiceId: paid.id, amount: '10.00', paidOn: '2034-04-01' });
    const voided = await insertInvoice(db(), { seller: w.id('A1'), buyer: w.id('T1'), total: '10.00', dueOn: '2034-05-01' });
    await db().updateTable('invoices').set({ voided_at: new Date(), void_reason: 'mistake' }).where('id', '=', voided.id).execute();
    const credit = await insertInvoice(db(), {
      seller: w.id('A1'),
      buyer: w.id('T1'),
      total: '-10.00',
      kind: 'credit_note',
      dueOn: '2034-05-01',
    });
    const later = await insertInvoice(db(), { seller: w.id('A1'), buyer: w.id('T1'), total: '10.00', dueOn: '2034-05-01' });
    // A reversed payment pays nothing.
    await insertPayment(db(), { invoiceId: later.id, amount: '10.00', paidOn: '2034-04-01', reversedReason: 'bounced' });

    await on('2034-05-01');
    for (const invoice of [paid, voided, credit]) expect(await remindersOf(invoice.id)).toEqual([]);
    expect((await remindersOf(later.id)).map((r) => r.n)).toEqual([1]);
    await insertPayment(db(), { invoiceId: later.id, amount: '10.00', paidOn: '2034-05-02' });
    await on('2034-05-20');
    expect((await remindersOf(later.id)).map((r) => r.n)).toEqual([1]);
  });

  it('each reminder goes out once with two senders looking at the same moment', async () => {
    const invoices = [];
    for (let i = 0; i < 8; i++) {
      invoices.push(await insertInvoice(db(), { seller: w.id('A1'), buyer: w.id('T1'), total: '5.00', dueOn: '2035-06-01' }));
    }
    const pair = [sender(), sender()];
    for (const day of ['2035-06-01', '2035-06-01', '2035-06-08', '2035-06-08']) {
      await on(day, pair);
      await on(day, pair);
    }
    for (const invoice of invoices) {
      expect((await remindersOf(invoice.id)).map((r) => r.n)).toEqual([1, 2]);
      expect(await mailsAbout(invoice.number)).toHaveLength(2);
      expect(await overdueEvents(invoice.id)).toHaveLength(1);
    }
  });

  it('takes at most a batch of invoices in one transaction', async () => {
    // What the earlier tests left due is sent the day before, so the next day holds only these.
    await on('2036-01-31');
    for (let i = 0; i < 101; i++) await insertInvoice(db(), { seller: w.id('A1'), buyer: w.id('T2'), total: '1.00', dueOn: '2036-02-01' });
    clock = new Date('2036-02-01T12:00:00.000Z');
    const one = sender();
    expect(await one.sendDue()).toBe(100);
    expect(await one.sendDue()).toBe(1);
    expect(await one.sendDue()).toBe(0);
  });
});
