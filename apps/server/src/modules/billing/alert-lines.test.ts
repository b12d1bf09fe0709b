import { afterAll, describe, expect, inject, it } from 'vitest';
import { sql } from 'kysely';
import { pino } from 'pino';
import { ALERT_LINES_MAX, MESSAGES } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { fund } from '../../test/usage-rows.ts';
import { createMailer } from '../../lib/mail.ts';
import { createBalanceAlertSender, type BalanceAlertSender } from './balance-alerts.ts';

/**
 * Alert lines: the API (who may, what is refused), and each kind crossing once, re-arming
 * when its value comes back, with a mail after the crossing commits and a webhook event, each
 * stating the line's bound. The tests drive a sender of their own, as another server process
 * would, so lines are measured and alerts mailed without waiting for a poll.
 */
const onPostgres = Boolean(inject('pgServerUrl'));
const w = useWorld();
const db = () => w.t.database.db;
const m = MESSAGES.alertLines;
const silent = pino({ level: 'silent' });
const senders: BalanceAlertSender[] = [];
afterAll(async () => {
  await Promise.all(senders.map((s) => s.close()));
});

function sender(): BalanceAlertSender {
  const made = createBalanceAlertSender({
    db: db(),
    mailer: createMailer({ db: db(), smtpUrl: null, logger: silent }),
    logger: silent,
    appUrl: 'http://console.test',
    pollMs: 3_600_000,
    linePollMs: 3_600_000,
  });
  senders.push(made);
  return made;
}

const path = (org: string, line?: string) => `/api/organizations/${w.id(org as 'A1')}/alert-lines${line ? `/${line}` : ''}`;
const call = async (who: string, method: string, url: string, body?: unknown) => w.t.request(method, url, body, { token: await w.as(who) });
const drainBy = async (org: string, amount: string) =>
  sql`select 1 from ledger_post(gen_random_uuid(), null, false, array[${org}]::uuid[], array[${`-${amount}`}]::numeric[],
    array['adjustment_decrease'], array['{"reason":"test drain"}'::jsonb])`.execute(db());
const lineAlerts = (lineId: string) =>
  db()
    .selectFrom('balance_alerts')
    .select(['kind', 'balance', 'threshold', 'mailed_at'])
    .where(sql<boolean>`detail ->> 'line_id' = ${lineId}`)
    .orderBy('id')
    .execute();
const lineEvents = async (lineId: string) =>
  (
    await db()
      .selectFrom('webhook_events')
      .select('data')
      .where('type', '=', 'alert.crossed')
      .where(sql<boolean>`data ->> 'line_id' = ${lineId}`)
      .orderBy('created_at')
      .execute()
  ).map((row) => row.data);
const lineState = (lineId: string) =>
  db()
    .selectFrom('alert_lines')
    .select(['crossed', sql<string | null>`value::text`.as('value')])
    .where('id', '=', lineId)
    .executeTakeFirstOrThrow();
/** Lets the next crossing of the line alert again: its last alert an hour and more ago. */
const hourLater = (lineId: string) =>
  sql`update balance_alerts set created_at = created_at - interval '61 minutes' where detail ->> 'line_id' = ${lineId}`.execute(db());
const mailsTo = (email: string) =>
  db().selectFrom('outbox').select(['subject', 'body_text']).where('to_address', '=', email).orderBy('id').execute();

async function create(org: string, body: unknown) {
  const answer = await call(`${org}.admin`, 'POST', path(org), body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as { id: string; bound: string; description: string };
}

describe('alert lines: the API', () => {
  it("lists the organization's threshold as its first line, to those who read its billing; only its own admins may change them", async () => {
    const own = await call('SA1.admin', 'GET', path('SA1'));
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ can_manage: true, max: ALERT_LINES_MAX });
    expect(own.body.lines).toEqual([
      expect.objectContaining({ kind: 'balance', bound: '100.00', window: null, low_balance_threshold: true, crossed: true }),
    ]);
    expect(own.body.lines[0].description).toBe('Alert when the balance is below 100.00 credits');
    const parent = await call('H.admin', 'GET', path('SA1'));
    expect(parent.status).toBe(200);
    expect(parent.body.can_manage).toBe(false);
    expect((await call('H.admin', 'POST', path('SA1'), { kind: 'balance', bound: '5' })).status).toBe(403);
    expect((await call('SA1.manager', 'POST', path('SA1'), { kind: 'balance', bound: '5' })).status).toBe(403);
    expect((await call('A1.admin', 'GET', path('SA1'))).status).toBe(404);
  });

  it('adds, changes and deletes lines with an audit row each; the threshold line moves the threshold', async () => {
    const line = await create('A1', { kind: 'cap_percent', bound: 80 });
    expect(line).toMatchObject({ bound: '80.00', window: 'month', description: 'Alert at 80 % of the monthly spend cap used' });
    const changed = await call('A1.admin', 'PUT', path('A1', line.id), { kind: 'cap_percent', bound: '90', window: 'week' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ bound: '90.00', window: 'week', description: 'Alert at 90 % of the weekly spend cap used' });
    expect((await call('A1.admin', 'DELETE', path('A1', line.id))).status).toBe(204);
    expect((await call('A1.admin', 'DELETE', path('A1', line.id))).status).toBe(404);

    const threshold = (await call('A1.admin', 'GET', path('A1'))).body.lines[0];
    expect((await call('A1.admin', 'PUT', path('A1', threshold.id), { kind: 'balance', bound: '42.5' })).status).toBe(200);
    const billing = await call('A1.admin', 'GET', `/api/organizations/${w.id('A1')}/billing`);
    expect(billing.body.billing_settings.low_balance_threshold).toBe('42.50');
    const viaOldField = await call('A1.admin', 'PUT', `/api/organizations/${w.id('A1')}/low-balance-threshold`, {
      low_balance_threshold: '60',
    });
    expect(viaOldField.status).toBe(200);
    expect((await call('A1.admin', 'GET', path('A1'))).body.lines[0]).toMatchObject({ id: threshold.id, bound: '60.00' });
    expect((await call('A1.admin', 'DELETE', path('A1', threshold.id))).status).toBe(204);
    expect((await call('A1.admin', 'GET', `/api/organizations/${w.id('A1')}/billing`)).body.billing_settings.low_balance_threshold).toBe(
      '0.00',
    );
    expect((await call('A1.admin', 'GET', path('A1'))).body.lines).toEqual([]);

    const audits = await db()
      .selectFrom('audit_log')
      .select(['action', 'details'])
      .where('organization_id', '=', w.id('A1'))
      .where('action', 'in', ['alert_line.create', 'alert_line.update', 'alert_line.delete'])
      .orderBy('created_at')
      .execute();
    expect(audits.map((a) => a.action)).toEqual([
      'alert_line.create',
      'alert_line.update',
      'alert_line.delete',
      'alert_line.update',
      'alert_line.delete',
    ]);
    expect(audits[1]!.details).toMatchObject({
      line_id: line.id,
      before: { kind: 'cap_percent', bound: '80.00', window: 'month' },
      after: { kind: 'cap_percent', bound: '90.00', window: 'week' },
    });
  });

  it('refuses bad input with 400, a change of kind and a line past the most with 422, and an unknown line with 404', async () => {
    for (const body of [
      { kind: 'balance', bound: 'ten' },
      { kind: 'balance', bound: '-1' },
      { kind: 'cap_percent', bound: '150' },
      { kind: 'cap_percent', bound: '50.5' },
      { kind: 'cap_percent', bound: '50', window: 'year' },
      { kind: 'runway_days', bound: '0' },
      { kind: 'runway_days', bound: '366' },
      { kind: 'temperature', bound: '3' },
      {},
    ]) {
      const answer = await call('T1.admin', 'POST', path('T1'), body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
    const answer = await call('T1.admin', 'POST', path('T1'), { kind: 'runway_days', bound: '366' });
    expect(JSON.stringify(answer.body)).toContain(m.daysInvalid);

    const line = await create('T1', { kind: 'runway_days', bound: 7 });
    const kind = await call('T1.admin', 'PUT', path('T1', line.id), { kind: 'balance', bound: '7' });
    expect(kind.status).toBe(422);
    expect(kind.body.error.message).toBe(m.kindFixed);
    expect((await call('T1.admin', 'PUT', path('T1', w.id('T2')), { kind: 'balance', bound: '7' })).status).toBe(404);

    const held = (await call('T1.admin', 'GET', path('T1'))).body.lines.length;
    for (let n = held; n < ALERT_LINES_MAX; n++) await create('T1', { kind: 'balance', bound: String(n) });
    const tooMany = await call('T1.admin', 'POST', path('T1'), { kind: 'balance', bound: '1' });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.message).toBe(m.tooMany(ALERT_LINES_MAX));
  });
});

describe('alert lines: crossings', () => {
  it('a balance line alerts once per crossing, re-arms when the balance comes back, and is mailed after its change commits', async () => {
    const sa1 = w.id('SA1');
    await fund(db(), sa1, '1000.00');
    const line = await create('SA1', { kind: 'balance', bound: '500' });
    expect(await lineState(line.id)).toEqual({ crossed: false, value: '1000.00' });

    // A change that rolls back queues nothing.
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await sql`update organization_billing_settings set credit_balance = 10 where organization_id = ${sa1}`.execute(trx);
          throw new Error('rolled back');
        }),
    ).rejects.toThrow('rolled back');
    expect(await lineAlerts(line.id)).toEqual([]);

    await drainBy(sa1, '600.00');
    await drainBy(sa1, '100.00');
    expect(await lineAlerts(line.id)).toMatchObject([{ kind: 'alert_line', balance: '400.00', threshold: '500.00', mailed_at: null }]);
    expect(await mailsTo('admin@sa1.test')).toEqual([]);
    const s = sender();
    while ((await s.sendPending()) > 0);
    const mails = (await mailsTo('admin@sa1.test')).filter((mail) => mail.subject === m.crossedSubject('Super One'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body_text).toContain('Alert: Super One has 400.00 credits, below your alert line of 500.00 credits.');
    expect(await lineEvents(line.id)).toEqual([{ line_id: line.id, kind: 'balance', bound: '500.00', value: '400.00', window: null }]);

    await fund(db(), sa1, '200.00');
    expect(await lineState(line.id)).toMatchObject({ crossed: false });
    await hourLater(line.id);
    await drainBy(sa1, '150.00');
    expect(await lineAlerts(line.id)).toHaveLength(2);
    expect((await lineEvents(line.id)).at(-1)).toMatchObject({ bound: '500.00', value: '350.00' });
  });

  it('a percent-of-cap line alerts once at or above its percent of the current window, and re-arms below it', async () => {
    const a2 = w.id('A2');
    await sql`update organization_billing_settings set spend_cap = 200 where organization_id = ${a2}`.execute(db());
    // SA1 has no cap of its own: its line measures nothing. A2's (set as its admins would) watches A2's cap.
    const line = await create('SA1', { kind: 'cap_percent', bound: '75' });
    const a2Line = await db()
      .insertInto('alert_lines')
      .values({ organization_id: a2, kind: 'cap_percent', bound: '75', cap_window: 'month' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const charge = async (amount: string) => {
      await sql`delete from spend_cap_months where scope = 'subtree' and scope_id = ${a2}`.execute(db());
      await sql`insert into spend_cap_months (scope, scope_id, month, charged)
        values ('subtree', ${a2}, date_trunc('month', now() at time zone 'UTC')::date, ${amount}::numeric)`.execute(db());
    };
    const s = sender();
    await charge('160');
    await s.measureLines(0);
    // The first measure of a new line alerts nobody, as setting a threshold never did.
    expect(await lineState(a2Line.id)).toEqual({ crossed: true, value: '80.00' });
    expect(await lineAlerts(a2Line.id)).toEqual([]);
    expect(await lineState(line.id)).toEqual({ crossed: false, value: null });

    await charge('100');
    await s.measureLines(0);
    expect(await lineState(a2Line.id)).toEqual({ crossed: false, value: '50.00' });
    await charge('150');
    await s.measureLines(0);
    await s.measureLines(0);
    expect(await lineAlerts(a2Line.id)).toMatchObject([{ kind: 'alert_line', balance: '75.00', threshold: '75.00' }]);
    expect(await lineEvents(a2Line.id)).toEqual([
      { line_id: a2Line.id, kind: 'cap_percent', bound: '75.00', value: '75.00', window: 'month' },
    ]);
    const [alert] = await db()
      .selectFrom('balance_alerts')
      .select('detail')
      .where(sql<boolean>`detail ->> 'line_id' = ${a2Line.id}`)
      .execute();
    expect(alert!.detail).toMatchObject({ line_kind: 'cap_percent', window: 'month' });

    // Below again re-arms; the next crossing (an hour after the last alert) alerts again.
    await charge('10');
    await s.measureLines(0);
    await hourLater(a2Line.id);
    await charge('199');
    await s.measureLines(0);
    expect(await lineAlerts(a2Line.id)).toHaveLength(2);
  });

  it('a runway line alerts once when the dashboard forecast leaves fewer days than its bound, and re-arms with more', async () => {
    const t2 = w.id('T2');
    await fund(db(), t2, '300.00');
    // 300 credits consumed over the last 30 days: 10 a day.
    await sql`insert into credit_usage_days (organization_id, day, entry_type, total, entries)
      values (${t2}, (now() at time zone 'UTC')::date - 29, 'consumption', -300, 1)`.execute(db());
    const line = await db()
      .insertInto('alert_lines')
      .values({ organization_id: t2, kind: 'runway_days', bound: '20' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const s = sender();
    await s.measureLines(0);
    expect(await lineState(line.id)).toEqual({ crossed: false, value: '30.00' });
    const dashboard = await call('A1.admin', 'GET', `/api/dashboard?organization_id=${t2}`);
    expect(dashboard.body.credits.forecast.average_daily).toBe('10.00');

    await drainBy(t2, '150.00');
    await s.measureLines(0);
    expect(await lineState(line.id)).toEqual({ crossed: true, value: '15.00' });
    await s.measureLines(0);
    expect(await lineAlerts(line.id)).toMatchObject([{ kind: 'alert_line', balance: '15.00', threshold: '20.00' }]);
    while ((await s.sendPending()) > 0);
    expect(await lineEvents(line.id)).toEqual([{ line_id: line.id, kind: 'runway_days', bound: '20.00', value: '15.00', window: null }]);

    // The dashboard's attention list shows the crossed line with its bound.
    const after = await call('A1.admin', 'GET', `/api/dashboard?organization_id=${t2}`);
    expect(after.body.credits.crossed_alert_lines).toContainEqual(
      expect.objectContaining({
        id: line.id,
        kind: 'runway_days',
        bound: '20.00',
        value: '15.00',
        description: 'Alert when the credits last fewer than 20 days at the current rate',
      }),
    );

    await fund(db(), t2, '100.00');
    await s.measureLines(0);
    expect(await lineState(line.id)).toEqual({ crossed: false, value: '25.00' });
    await hourLater(line.id);
    await drainBy(t2, '100.00');
    await s.measureLines(0);
    expect(await lineAlerts(line.id)).toHaveLength(2);
  });

  it(`senders in several processes measure each line once: one alert per crossing (${onPostgres ? 'PostgreSQL: truly concurrent' : 'PGlite: serialized'})`, async () => {
    const t1 = w.id('T1');
    await sql`update organization_billing_settings set spend_cap = 100 where organization_id = ${t1}`.execute(db());
    // Measured a day ago, below its bound: the next measure is a crossing.
    const line = await db()
      .insertInto('alert_lines')
      .values({
        organization_id: t1,
        kind: 'cap_percent',
        bound: '50',
        cap_window: 'month',
        checked_at: sql<string>`now() - interval '1 day'`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await sql`insert into spend_cap_months (scope, scope_id, month, charged)
      values ('subtree', ${t1}, date_trunc('month', now() at time zone 'UTC')::date, 60)`.execute(db());
    const many = [sender(), sender(), sender(), sender()];
    await Promise.all(many.map((s) => s.measureLines(0)));
    await Promise.all(many.map((s) => s.measureLines(0)));
    expect(await lineAlerts(line.id)).toHaveLength(1);
    expect(await lineEvents(line.id)).toHaveLength(1);
  });
});
