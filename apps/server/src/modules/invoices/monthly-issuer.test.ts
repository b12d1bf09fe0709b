import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { until } from '../../../../../support/webhook-receiver.ts';
import { createMailer } from '../../lib/mail.ts';
import { useWorld } from '../../test/harness.ts';
import { fund } from '../../test/usage-rows.ts';
import { invoiceKit } from './invoice-test-kit.ts';
import { createMonthlyIssuer, monthCutoff } from './monthly-issuer.ts';

/**
 * On the first of a month every seller with billing details issues what each child received
 * before it: never the running month's movements, and each movement once however many
 * processes look at the same moment.
 */
const w = useWorld();
const k = invoiceKit(w);
const db = () => w.t.database.db;
const issuer = (clock?: () => Date) =>
  createMonthlyIssuer({
    db: db(),
    mailer: createMailer({ db: db(), smtpUrl: null, logger: w.t.app.log }),
    appUrl: 'http://console.test',
    logger: w.t.app.log,
    pollMs: 3_600_000,
    clock,
  });
const now = new Date();
const thisMonth = now.toISOString().slice(0, 7);
/** An hour into next month. */
const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 1));
const invoicesOf = (seller: string) =>
  db()
    .selectFrom('invoices')
    .select(['number', 'buyer_id', sql<string>`to_char(period, 'YYYY-MM')`.as('period'), 'created_by'])
    .where('seller_id', '=', seller)
    .orderBy('number')
    .execute();

beforeAll(async () => {
  await fund(db(), w.id('A1'), '10000.00');
  await fund(db(), w.id('SA1'), '10000.00');
  expect((await k.setDetails('A1.admin', 'A1')).status).toBe(200);
  await k.allocate('A1.admin', 'A1', 'T1', '100');
  await k.allocate('A1.admin', 'A1', 'T1', '50');
  await k.allocate('A1.admin', 'A1', 'T2', '70');
  // Super One has no billing details: it issues nothing.
  await k.allocate('SA1.admin', 'SA1', 'A1', '500');
});

describe('the monthly issuer', () => {
  it('knows the month it closes', () => {
    expect(monthCutoff(new Date('2026-03-01T00:00:00.000Z'))).toEqual({ cutoff: new Date('2026-03-01T00:00:00.000Z'), period: '2026-02' });
    expect(monthCutoff(new Date('2026-01-31T23:59:59.999Z'))).toEqual({ cutoff: new Date('2026-01-01T00:00:00.000Z'), period: '2025-12' });
  });

  it('leaves the running month alone', async () => {
    const runner = issuer();
    expect(await runner.issueDue()).toEqual({ issued: 0, busy: false });
    await runner.close();
    expect(await invoicesOf(w.id('A1'))).toEqual([]);
    expect((await k.drafts('A1.admin', 'A1')).body.drafts).toHaveLength(2);
  });

  it('issues every earlier movement once, even with two issuers at the same moment', async () => {
    const [a, b] = [issuer(), issuer()];
    const results = await Promise.all([a.issueDue(nextMonth), b.issueDue(nextMonth)]);
    await Promise.all([a.close(), b.close()]);
    expect(results[0]!.issued + results[1]!.issued).toBe(2);
    const issued = await invoicesOf(w.id('A1'));
    expect(issued).toEqual([
      { number: 1, buyer_id: expect.any(String), period: thisMonth, created_by: null },
      { number: 2, buyer_id: expect.any(String), period: thisMonth, created_by: null },
    ]);
    expect(new Set(issued.map((row) => row.buyer_id))).toEqual(new Set([w.id('T1'), w.id('T2')]));
    const { rows } = await sql<{ lines: number; entries: number }>`
      select (select count(*)::int from invoice_lines l join invoices i on i.id = l.invoice_id where i.seller_id = ${w.id('A1')}) as lines,
             (select count(*)::int from credit_ledger_entries e where e.entry_type = 'allocation_received'
                and e.metadata->>'from_org_id' = ${w.id('A1')}) as entries`.execute(db());
    expect(rows[0]).toEqual({ lines: 3, entries: 3 });
    expect(await invoicesOf(w.id('SA1'))).toEqual([]);
    expect((await k.drafts('A1.admin', 'A1')).body.drafts).toEqual([]);
    const again = issuer();
    expect((await again.issueDue(nextMonth)).issued).toBe(0);
    await again.close();
    const audit = await db().selectFrom('audit_log').select(['actor_user_id']).where('action', '=', 'invoices.issue').execute();
    expect(audit).toEqual([{ actor_user_id: null }, { actor_user_id: null }]);
    expect(await db().selectFrom('webhook_events').select('id').where('type', '=', 'invoice.issued').execute()).toHaveLength(2);
  });

  it('runs by itself every poll, and a movement of the new month waits for the next one', async () => {
    await k.allocate('A1.admin', 'A1', 'T2', '30');
    // A clock in the month after next: this month's new movement is due.
    const later = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 1, 1));
    const runner = createMonthlyIssuer({
      db: db(),
      mailer: createMailer({ db: db(), smtpUrl: null, logger: w.t.app.log }),
      appUrl: 'http://console.test',
      logger: w.t.app.log,
      pollMs: 20,
      clock: () => later,
    });
    try {
      await until(async () => (await invoicesOf(w.id('A1'))).length === 3, 'the loop issued the new movement');
    } finally {
      await runner.close();
    }
    const last = (await invoicesOf(w.id('A1')))[2]!;
    expect(last).toMatchObject({ number: 3, buyer_id: w.id('T2'), period: monthCutoff(later).period });
  });
});
