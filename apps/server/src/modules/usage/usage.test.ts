import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES, USAGE_WINDOW } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { insertOrg } from '../../test/fixtures.ts';
import { reconcile } from '../credits/reconcile.ts';
import { isKeyRefusal, verifyKey } from '../../lib/api-key.ts';
import { createRecord } from './record.ts';
import { DAY, activate, addPrice, ago, balanceOf, cents, fund, insertAgentType, insertApiKey } from '../../test/usage-rows.ts';

const w = useWorld();
const db = () => w.t.database.db;
const m = MESSAGES.usage;

let key: { id: string; key: string; prefix: string };
const agents: Record<string, { id: string; code: string }> = {};
/** A tenant below A1 that no other test touches: its books are checked to the cent. */
let lean: { id: string; path: string };
let deleted: { id: string };

const minutesAgo = (n: number) => ago(n * 60_000).toISOString();
function event(org: string, id: string, agent: string, units: string, occurred_at = minutesAgo(1)) {
  return { id, organization_id: org, agent, units, occurred_at };
}
const report = (events: unknown[], bearer = key.key) =>
  w.t.request('POST', '/api/v1/usage-events', { events }, { headers: { authorization: `Bearer ${bearer}` } });
const count = async (table: 'usage_events' | 'balance_alerts' | 'audit_log' | 'credit_ledger_entries') =>
  (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db())).rows[0]!.n;

beforeAll(async () => {
  const d = db();
  agents.bot = await insertAgentType(d, 'bot', '0.2500');
  agents.cheap = await insertAgentType(d, 'cheap', '0.0007');
  agents.free = await insertAgentType(d, 'free', '0.0000');
  agents.unused = await insertAgentType(d, 'unused', '1.0000');
  agents.late = await insertAgentType(d, 'late', '1.0000', ago(DAY));
  agents.shift = await insertAgentType(d, 'shift', '0.5000');
  lean = await insertOrg(d, { name: 'Lean Tenant', type: 'tenant', parentId: w.id('A1') });
  deleted = await insertOrg(d, { name: 'Gone Tenant', type: 'tenant', parentId: w.id('A1') });
  for (const org of [w.id('A1'), w.id('T1'), w.id('T2'), w.id('SA3'), deleted.id]) await activate(d, org, agents.bot.id);
  for (const agent of ['cheap', 'free', 'late', 'shift']) await activate(d, w.id('T1'), agents[agent]!.id);
  await activate(d, lean.id, agents.bot.id);
  await activate(d, lean.id, agents.cheap.id);
  await fund(d, w.id('A1'), '10.00');
  await fund(d, w.id('T1'), '10.00');
  await fund(d, w.id('T2'), '10.00');
  await sql`update organizations set deleted_at = now() where id = ${deleted.id}`.execute(d);
  await sql`update organizations set status = 'suspended' where id = ${w.id('T2')}`.execute(d);
  key = await insertApiKey(d, w.id('A1'), { name: 'A1 runtime' });
});

describe('POST /api/v1/usage-events: each event accepted, a duplicate, or rejected with its reason', () => {
  let batch: ReturnType<typeof event>[];

  it('answers every event in order, charges the accepted ones and writes one audit row for the batch', async () => {
    const T1 = w.id('T1');
    batch = [
      event(T1, 'e1', 'bot', '4'),
      event(T1, 'e1', 'bot', '4'),
      event(T1, 'e3', 'ghost', '1'),
      event(T1, 'e4', 'unused', '1'),
      event(w.id('SA1'), 'e5', 'bot', '1'),
      event(w.id('H2'), 'e6', 'bot', '1'),
      event('00000000-0000-4000-8000-000000000000', 'e7', 'bot', '1'),
      event(deleted.id, 'e8', 'bot', '1'),
      event(w.id('T2'), 'e9', 'bot', '1'),
      event(T1, 'e10', 'bot', '1', new Date(Date.now() + 10 * 60_000).toISOString()),
      event(T1, 'e11', 'bot', '1', ago(32 * DAY).toISOString()),
      event(T1, 'e12', 'late', '1', ago(2 * DAY).toISOString()),
      event(T1, 'e13', 'bot', '100000'),
      event(w.id('A1'), 'e14', 'bot', '1'),
      event(T1, 'e15', 'free', '3'),
    ];
    const audits = await count('audit_log');
    const response = await report(batch);
    expect(response.status).toBe(200);
    const outcomes = response.body.results.map((r: any) => [r.id, r.status, r.credits_charged, r.reason]);
    expect(outcomes).toEqual([
      ['e1', 'accepted', '1.00', null],
      ['e1', 'duplicate', '1.00', null],
      ['e3', 'rejected', null, 'unknown_agent'],
      ['e4', 'rejected', null, 'agent_not_active'],
      ['e5', 'rejected', null, 'out_of_reach'],
      ['e6', 'rejected', null, 'out_of_reach'],
      ['e7', 'rejected', null, 'out_of_reach'],
      ['e8', 'rejected', null, 'out_of_reach'],
      ['e9', 'rejected', null, 'organization_not_active'],
      ['e10', 'rejected', null, 'invalid'],
      ['e11', 'rejected', null, 'invalid'],
      ['e12', 'rejected', null, 'invalid'],
      ['e13', 'rejected', null, 'insufficient_credits'],
      ['e14', 'accepted', '0.25', null],
      ['e15', 'accepted', '0.00', null],
    ]);
    expect(response.body.results.slice(2, 13).map((r: any) => r.message)).toEqual([
      m.unknownAgent('ghost'),
      m.agentNotActive('unused'),
      m.outOfReach,
      m.outOfReach,
      m.outOfReach,
      m.outOfReach,
      m.organizationNotActive,
      m.ahead(USAGE_WINDOW.futureSeconds),
      m.behind(USAGE_WINDOW.pastDays),
      m.noPrice('late', batch[11]!.occurred_at),
      m.insufficient('9.00', '25000.00'),
    ]);
    expect(response.body).toMatchObject({ accepted: 3, duplicates: 1, rejected: 11 });
    expect(await balanceOf(db(), T1)).toBe('9.00');
    expect(await balanceOf(db(), w.id('A1'))).toBe('9.75');

    const stored = await db().selectFrom('usage_events').selectAll().orderBy('client_event_id').execute();
    expect(stored.map((e) => [e.client_event_id, e.units, e.price, e.cost, e.charged, e.api_key_id, e.ledger_entry_id !== null])).toEqual([
      ['e1', '4.0000', '0.2500', '1.00000000', '1.00', key.id, true],
      ['e14', '1.0000', '0.2500', '0.25000000', '0.25', key.id, true],
      ['e15', '3.0000', '0.0000', '0.00000000', '0.00', key.id, false],
    ]);
    const entry = await db()
      .selectFrom('credit_ledger_entries')
      .selectAll()
      .where('id', '=', stored[0]!.ledger_entry_id!)
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({
      organization_id: T1,
      entry_type: 'consumption',
      amount: '-1.00',
      balance_after: '9.00',
      external_ref: null,
      agent_type_id: agents.bot!.id,
      units: '4.0000',
      metadata: { agent: 'bot', events: 1, units: '4.0000', price: '0.2500' },
      created_by: null,
    });
    expect(stored[1]!.ledger_entry_id).not.toBe(stored[0]!.ledger_entry_id);

    expect(await count('audit_log')).toBe(audits + 1);
    const audit = await db().selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(audit).toMatchObject({
      action: 'usage.reported',
      organization_id: w.id('A1'),
      target_type: 'api_key',
      target_id: key.id,
      actor_user_id: null,
    });
    expect(audit.details).toMatchObject({
      events: 15,
      accepted: 3,
      duplicates: 1,
      rejected: 11,
      credits_charged: '1.25',
      summary: 'Key A1 runtime reported 3 usage events (its first report this hour)',
    });
    // Refused for want of credits: one alert for T1.
    const alerts = await db().selectFrom('balance_alerts').selectAll().where('kind', '=', 'insufficient_credits').execute();
    expect(alerts.map((a) => [a.organization_id, a.balance])).toEqual([[T1, '9.00']]);
  });

  it('answers the same batch again with the first outcomes: nothing charged twice, rejections evaluated afresh, no audit row', async () => {
    const before = [
      await balanceOf(db(), w.id('T1')),
      await balanceOf(db(), w.id('A1')),
      await count('usage_events'),
      await count('audit_log'),
    ];
    const response = await report(batch);
    expect(response.status).toBe(200);
    const statuses = response.body.results.map((r: any) => `${r.id}:${r.status}:${r.credits_charged ?? r.reason}`);
    expect(statuses.filter((s: string) => s.includes(':duplicate:'))).toEqual([
      'e1:duplicate:1.00',
      'e1:duplicate:1.00',
      'e14:duplicate:0.25',
      'e15:duplicate:0.00',
    ]);
    expect(response.body).toMatchObject({ accepted: 0, duplicates: 4, rejected: 11 });
    expect([
      await balanceOf(db(), w.id('T1')),
      await balanceOf(db(), w.id('A1')),
      await count('usage_events'),
      await count('audit_log'),
    ]).toEqual(before);
  });

  it("audits a key's reports at most once an hour: its first accepted batch of the hour", async () => {
    const hourly = await insertApiKey(db(), w.id('A1'), { name: 'A1 hourly' });
    const audited = async () =>
      (await sql<{ n: number }>`select count(*)::int as n from audit_log where target_id = ${hourly.id}`.execute(db())).rows[0]!.n;
    for (let n = 0; n < 5; n++) expect((await report([event(w.id('T1'), `hourly-${n}`, 'free', '1')], hourly.key)).body.accepted).toBe(1);
    expect(await audited()).toBe(1);
    await sql`update api_keys set usage_audited_at = now() - interval '61 minutes' where id = ${hourly.id}`.execute(db());
    // A batch that accepts nothing is not audited and leaves the hour open.
    await report([event(w.id('T1'), 'hourly-0', 'free', '1')], hourly.key);
    expect(await audited()).toBe(1);
    await report([event(w.id('T1'), 'hourly-next', 'free', '1')], hourly.key);
    expect(await audited()).toBe(2);
  });

  it("records a key's small batches that arrive while one of its statements runs as one statement, each request answered with its own outcomes", async () => {
    const busy = await insertOrg(db(), { name: 'Busy Tenant', type: 'tenant', parentId: w.id('A1') });
    await activate(db(), busy.id, agents.bot!.id);
    await fund(db(), busy.id, '10.00');
    const verified = await verifyKey(db(), key.key);
    if (isKeyRefusal(verified)) throw new Error('the key was refused');
    const { record } = createRecord({ db: db() });
    const info = { ip: '127.0.0.1', requestId: 'coalesced', userAgent: null };
    // Ten requests of one event each, sent at once; the last repeats the first's id.
    const ids = ['b0', 'b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7', 'b8', 'b0'];
    const answers = await Promise.all(ids.map((id) => record({ kind: 'key', key: verified }, [event(busy.id, id, 'bot', '1')], info)));
    expect(answers.map((a) => a.results.map((r) => [r.id, r.status, r.credits_charged]))).toEqual([
      ...ids.slice(0, 9).map((id) => [[id, 'accepted', '0.25']]),
      [['b0', 'duplicate', '0.25']],
    ]);
    expect(answers.map((a) => a.accepted)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 0]);
    // The first went alone; the nine that waited for it went together (the repeat charged nothing).
    const entries = await sql<{ events: number }>`
      select (metadata->>'events')::int as events from credit_ledger_entries
      where organization_id = ${busy.id} and entry_type = 'consumption' order by events`.execute(db());
    expect(entries.rows.map((r) => r.events)).toEqual([1, 8]);
    expect(await balanceOf(db(), busy.id)).toBe('7.75');
  });

  it("keeps the house import's ids apart from the keys': a key cannot take an id the import will use, nor a refund's reference", async () => {
    const org = w.id('A1');
    const admin = await w.as('H.admin');
    expect(
      (await report([event(org, 'invoice-2026-11-7', 'bot', '0.0001'), event(org, 'refund-ref-7', 'bot', '0.0001')])).body.accepted,
    ).toBe(2);
    const imported = await w.t.request(
      'POST',
      '/api/credits/usage',
      { events: [event(org, 'invoice-2026-11-7', 'bot', '4')] },
      { token: admin },
    );
    expect(imported.body.results[0]).toMatchObject({ status: 'accepted', credits_charged: '1.00' });
    const again = await w.t.request(
      'POST',
      '/api/credits/usage',
      { events: [event(org, 'invoice-2026-11-7', 'bot', '4')] },
      { token: admin },
    );
    expect(again.body.results[0]).toMatchObject({ status: 'duplicate', credits_charged: '1.00' });
    // A refund whose own reference a key already used as an event id is recorded: event ids are not ledger references.
    const refund = await w.t.request(
      'POST',
      '/api/credits/usage',
      { refunds: [{ organization_id: org, amount: '0.25', external_ref: 'refund-ref-7', refund_of: 'invoice-2026-11-7' }] },
      { token: admin },
    );
    expect(refund.body.refunds[0]).toMatchObject({ status: 'recorded' });
    expect((await reconcile(db())).ok).toBe(true);
  });

  it('forgets an id once its event is older than the window and the margin, a few per batch, and keeps the younger ones', async () => {
    const T1 = w.id('T1');
    const keepDays = USAGE_WINDOW.idKeepDays;
    await sql`
      insert into usage_event_ids (organization_id, source, client_event_id, event_id, occurred_at, charged) values
        (${T1}, 'key', 'expired-id', gen_random_uuid(), now() - make_interval(days => ${keepDays + 1}), 0),
        (${T1}, 'key', 'kept-id', gen_random_uuid(), now() - make_interval(days => ${keepDays - 1}), 0)`.execute(db());
    await report([event(T1, 'window-trigger', 'free', '1')]);
    const left = await db()
      .selectFrom('usage_event_ids')
      .select('client_event_id')
      .where('client_event_id', 'in', ['expired-id', 'kept-id'])
      .execute();
    expect(left.map((r) => r.client_event_id)).toEqual(['kept-id']);
    // The kept id still answers duplicate, though no event of that id is stored.
    expect((await report([event(T1, 'kept-id', 'free', '1')])).body.results[0].status).toBe('duplicate');
  });

  it('charges exactly the whole cents of 10,000 events of 0.3333 units at 0.0007 and carries the rest', { timeout: 120_000 }, async () => {
    await fund(db(), lean.id, '5.00');
    const entries = await count('credit_ledger_entries');
    for (let b = 0; b < 10; b++) {
      const events = Array.from({ length: 1000 }, (_, i) => event(lean.id, `sub-cent-${b}-${i}`, 'cheap', '0.3333'));
      const response = await report(events);
      expect(response.status).toBe(200);
      expect(response.body.accepted).toBe(1000);
    }
    // 10,000 × 0.3333 × 0.0007 = 2.3331: 2.33 charged, in 233 charges of 0.01, and 0.0031 carried.
    const { rows } = await sql<{ cost: string; charged: string; carry: string }>`
      select sum(cost)::text as cost, sum(charged)::text as charged,
             (select carry::text from usage_carry where organization_id = ${lean.id} and agent_type_id = ${agents.cheap!.id}) as carry
      from usage_events where organization_id = ${lean.id}`.execute(db());
    expect(rows[0]).toEqual({ cost: '2.33310000', charged: '2.33', carry: '0.00310000' });
    expect(await balanceOf(db(), lean.id)).toBe('2.67');
    // One consumption entry a batch (one organization, agent type and price), each the sum of its events' charges.
    const posted = await db()
      .selectFrom('credit_ledger_entries')
      .select(['amount', 'units', 'metadata'])
      .where('organization_id', '=', lean.id)
      .where('entry_type', '=', 'consumption')
      .orderBy('seq')
      .execute();
    expect(posted).toHaveLength(10);
    expect(posted.every((e) => (e.metadata as { events: number }).events === 1000 && e.units === '333.3000')).toBe(true);
    expect((await count('credit_ledger_entries')) - entries).toBe(10);
    expect((await reconcile(db())).ok).toBe(true);
  });

  it("charges a key's event the price in force at the later of its occurrence and its arrival minus the grace, so backdating picks no older price; the house's import charges the price of its time", async () => {
    await addPrice(db(), agents.shift!.id, '1.0000', ago(60 * 60_000));
    const T1 = w.id('T1');
    const imported = await w.t.request(
      'POST',
      '/api/credits/usage',
      {
        events: [
          event(T1, 'shift-old', 'shift', '2', ago(2 * DAY).toISOString()),
          event(T1, 'shift-edge', 'shift', '2', ago(60 * 60_000 + 1000).toISOString()),
        ],
      },
      { token: await w.as('H.admin') },
    );
    expect(imported.body.results.map((r: any) => r.credits_charged)).toEqual(['1.00', '1.00']);
    expect((await report([event(T1, 'shift-new', 'shift', '2', minutesAgo(30))])).body.results[0].credits_charged).toBe('2.00');

    // A rise two minutes ago, within the grace: an event that occurred before it is in flight and keeps its price.
    const back = await insertOrg(db(), { name: 'Backdating Tenant', type: 'tenant', parentId: w.id('A1') });
    await activate(db(), back.id, agents.shift!.id);
    await fund(db(), back.id, '10.00');
    await addPrice(db(), agents.shift!.id, '2.0000', ago(2 * 60_000));
    const grace = USAGE_WINDOW.priceGraceSeconds / 60;
    const backdated = await report([
      event(back.id, 'back-day', 'shift', '1', ago(2 * DAY).toISOString()),
      event(back.id, 'back-hour', 'shift', '1', ago(61 * 60_000).toISOString()),
      event(back.id, 'in-flight', 'shift', '1', minutesAgo(grace - 2)),
      event(back.id, 'after-rise', 'shift', '1', minutesAgo(1)),
    ]);
    expect(backdated.body.results.map((r: any) => r.credits_charged)).toEqual(['1.00', '1.00', '1.00', '2.00']);
    const prices = await db()
      .selectFrom('usage_events')
      .select(['client_event_id', 'price'])
      .where('client_event_id', 'like', 'shift-%')
      .orderBy('client_event_id')
      .execute();
    expect(prices).toEqual([
      { client_event_id: 'shift-edge', price: '0.5000' },
      { client_event_id: 'shift-new', price: '1.0000' },
      { client_event_id: 'shift-old', price: '0.5000' },
    ]);
  });

  it('takes events in batch order until the balance runs out, never below zero, and alerts at most once an hour', async () => {
    // lean holds 2.67: ten events of 0.50 fit five times.
    const entries = await count('credit_ledger_entries');
    const events = Array.from({ length: 10 }, (_, i) => event(lean.id, `order-${i}`, 'bot', '2'));
    const response = await report(events);
    expect(response.body.results.map((r: any) => r.status)).toEqual([...Array(5).fill('accepted'), ...Array(5).fill('rejected')]);
    expect(response.body.results[5].message).toBe(m.insufficient('0.17', '0.50'));
    expect(await balanceOf(db(), lean.id)).toBe('0.17');
    // The five accepted events make one consumption entry: the balance moved once.
    expect((await count('credit_ledger_entries')) - entries).toBe(1);
    const alertsOf = async () =>
      (
        await db().selectFrom('balance_alerts').select(['kind', 'balance']).where('organization_id', '=', lean.id).orderBy('id').execute()
      ).map((a) => `${a.kind} ${a.balance}`);
    // No low-balance alert: the balance was never at or above the threshold of 100. One refusal alert.
    expect(await alertsOf()).toEqual(['insufficient_credits 0.17']);
    await report([event(lean.id, 'order-again', 'bot', '2')]);
    expect(await alertsOf()).toEqual(['insufficient_credits 0.17']);
    await sql`update organization_billing_settings set insufficient_alerted_at = now() - interval '61 minutes' where organization_id = ${lean.id}`.execute(
      db(),
    );
    await report([event(lean.id, 'order-later', 'bot', '2')]);
    expect(await alertsOf()).toEqual(['insufficient_credits 0.17', 'insufficient_credits 0.17']);
  });

  it('refuses an event that would cost more than any balance can hold for want of credits, not with a server error', async () => {
    const dear = await insertAgentType(db(), 'dear', '999999999.9999');
    await activate(db(), lean.id, dear.id);
    const response = await report([event(lean.id, 'dear-1', 'dear', '999999999999.9999')]);
    expect(response.status).toBe(200);
    expect(response.body.results[0]).toMatchObject({ status: 'rejected', reason: 'insufficient_credits', credits_charged: null });
    expect(response.body.results[0].message).toBe(m.insufficient('0.17', '999999999999899900000.00'));
  });

  it('queues one low-balance alert when usage takes the balance below the threshold', async () => {
    const org = await insertOrg(db(), { name: 'Threshold Tenant', type: 'tenant', parentId: w.id('A1') });
    await activate(db(), org.id, agents.bot!.id);
    await fund(db(), org.id, '150.00');
    const response = await report([
      event(org.id, 'threshold-1', 'bot', '100'),
      event(org.id, 'threshold-2', 'bot', '100'),
      event(org.id, 'threshold-3', 'bot', '100'),
    ]);
    expect(response.body.accepted).toBe(3);
    const alerts = await db()
      .selectFrom('balance_alerts')
      .select(['kind', 'balance', 'threshold'])
      .where('organization_id', '=', org.id)
      .execute();
    expect(alerts).toEqual([{ kind: 'low_balance', balance: '75.00', threshold: '100.00' }]);
  });
});

describe('occurred_at with any offset ISO 8601 allows', () => {
  /** The same instant written with an offset: the local time, then the offset. */
  function withOffset(instant: Date, offset: string, fraction = ''): string {
    const sign = offset.startsWith('-') ? -1 : 1;
    const [hours, minutes] = offset.slice(1).split(':').map(Number);
    const local = new Date(instant.getTime() + sign * (hours! * 60 + minutes!) * 60_000);
    return `${local.toISOString().slice(0, 19)}${fraction}${offset}`;
  }
  const stored = async (id: string) =>
    (
      await sql<{ at: string }>`select to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as at
        from usage_events where organization_id = ${zone.id} and client_event_id = ${id}`.execute(db())
    ).rows[0]?.at;

  let zone: { id: string };
  beforeAll(async () => {
    zone = await insertOrg(db(), { name: 'Far Zone Tenant', type: 'tenant', parentId: w.id('A1') });
    await activate(db(), zone.id, agents.bot!.id);
    await fund(db(), zone.id, '10.00');
  });

  it('records each event at its instant, offsets from ±16:00 to ±23:59 too (PostgreSQL reads only up to ±15:59), on the machine API and the house import', async () => {
    const instant = new Date(Math.floor(Date.now() / 1000) * 1000 - 120_000);
    const offsets = ['+15:59', '-15:59', '+16:00', '-16:00', '+23:59', '-23:59', '+00:00', '-00:00'];
    const events = offsets.map((offset, i) => ({
      id: `offset-${i}`,
      organization_id: zone.id,
      agent: 'bot',
      units: '1',
      occurred_at: withOffset(instant, offset, '.123456'),
    }));
    const answer = await report(events);
    expect(answer.status).toBe(200);
    expect(answer.body.accepted).toBe(offsets.length);
    const expected = `${instant.toISOString().slice(0, 19)}.123456`;
    for (const event of events) expect(await stored(event.id), event.occurred_at).toBe(expected);

    const imported = await w.t.request(
      'POST',
      '/api/credits/usage',
      { events: [{ id: 'offset-import', organization_id: zone.id, agent: 'bot', units: '1', occurred_at: withOffset(instant, '-20:30') }] },
      { token: await w.as('H.admin') },
    );
    expect(imported.status).toBe(200);
    expect(imported.body.results[0]).toMatchObject({ status: 'accepted' });
    expect(await stored('offset-import')).toBe(`${instant.toISOString().slice(0, 19)}.000000`);
  });

  it('still judges the window by the instant: +23:59 on a time one minute ahead is one minute ahead', async () => {
    const ahead = new Date(Date.now() + USAGE_WINDOW.futureSeconds * 1000 + 60_000);
    const answer = await report([
      { id: 'offset-ahead', organization_id: zone.id, agent: 'bot', units: '1', occurred_at: withOffset(ahead, '+23:59') },
    ]);
    expect(answer.body.results[0]).toMatchObject({ status: 'rejected', reason: 'invalid', message: m.ahead(USAGE_WINDOW.futureSeconds) });
  });
});

describe('the ledger of metered usage', () => {
  it("filters by agent type, and the export names each entry's agent and units", async () => {
    const token = await w.as('A1.admin');
    const page = await w.t.request(
      'GET',
      `/api/credits/ledger?organization_id=${w.id('T1')}&agent_type_id=${agents.shift!.id}`,
      undefined,
      { token },
    );
    expect(page.status).toBe(200);
    expect(page.body.entries.map((e: any) => [e.metadata.events, e.amount, e.units, e.agent_type_id])).toEqual([
      // Newest first: shift-new was reported after the import of the other two, which had one price and made one entry.
      [1, '-2.00', '2.0000', agents.shift!.id],
      [2, '-2.00', '4.0000', agents.shift!.id],
    ]);
    const csv = await fetch(`${w.t.baseUrl}/api/credits/ledger/export?organization_id=${w.id('T1')}&agent_type_id=${agents.bot!.id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe(
      'created_at,entry_type,amount,balance_after,description,actor,actor_email,counterparty,counterparty_org_id,notes,agent,units,transaction_group,reversed_by,external_ref,id',
    );
    expect(lines).toHaveLength(2);
    // The description names the agent from the catalog and holds a comma, so it is quoted; the
    // actor, the counterparty and the notes are empty.
    expect(lines[1]).toContain(',consumption,-1.00,9.00,"Agent bot: 1 event, 4 × run, charged 1.00 credits",,,,,,bot,4.0000,');
    // The page's description is the same sentence.
    const botPage = await w.t.request(
      'GET',
      `/api/credits/ledger?organization_id=${w.id('T1')}&agent_type_id=${agents.bot!.id}`,
      undefined,
      { token },
    );
    expect(botPage.body.entries.map((e: any) => e.description)).toEqual(['Agent bot: 1 event, 4 × run, charged 1.00 credits']);
    expect((await w.t.request('GET', '/api/credits/ledger?agent_type_id=nope', undefined, { token })).status).toBe(400);
  });

  it("finds the consumption entry that charged an event by the event's id", async () => {
    const token = await w.as('A1.admin');
    const found = await w.t.request('GET', `/api/credits/ledger?organization_id=${w.id('T1')}&q=e1`, undefined, { token });
    expect(found.status).toBe(200);
    expect(found.body.entries.map((e: any) => e.description)).toEqual(['Agent bot: 1 event, 4 × run, charged 1.00 credits']);
  });

  it("lets a house admin refund a metered consumption by the event's id", async () => {
    const before = await balanceOf(db(), w.id('T1'));
    const response = await w.t.request(
      'POST',
      '/api/credits/usage',
      { refunds: [{ organization_id: w.id('T1'), amount: '0.50', external_ref: 'refund-e1', refund_of: 'e1' }] },
      { token: await w.as('H.admin') },
    );
    expect(response.body.refunds[0]).toMatchObject({ status: 'recorded' });
    expect(cents(await balanceOf(db(), w.id('T1'))) - cents(before)).toBe(50n);
  });
});

describe('POST /api/v1/heartbeats', () => {
  const beat = (body: Record<string, unknown>) =>
    w.t.request('POST', '/api/v1/heartbeats', body, { headers: { authorization: `Bearer ${key.key}` } });

  it("sets the live activation's status, health and last activity, auditing a change of status only", async () => {
    const audits = await count('audit_log');
    const first = await beat({ organization_id: w.id('T1'), agent: 'bot', status: 'error', health_score: 40 });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'error', health_score: 40, last_active_at: expect.any(String) });
    const again = await beat({ organization_id: w.id('T1'), agent: 'bot', status: 'error' });
    expect(again.body).toMatchObject({ status: 'error', health_score: 40 });
    expect(await count('audit_log')).toBe(audits + 1);
    const audit = await db().selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ action: 'agents.status_reported', organization_id: w.id('T1'), target_id: first.body.activation_id });
    expect(audit.details).toMatchObject({ from: 'active', to: 'error', key_name: 'A1 runtime' });
  });

  it('a runtime flapping between statuses writes one audit row an hour, counting the changes; a change into error is written at once', async () => {
    const tenant = await insertOrg(db(), { name: 'Flapping Tenant', type: 'tenant', parentId: w.id('A1') });
    const activationId = await activate(db(), tenant.id, agents.bot!.id);
    const report = async (status: string) =>
      expect((await beat({ organization_id: tenant.id, agent: 'bot', status })).status, status).toBe(200);
    const rows = () =>
      db()
        .selectFrom('audit_log')
        .select(['details'])
        .where('action', '=', 'agents.status_reported')
        .where('target_id', '=', activationId)
        .orderBy('id')
        .execute();

    // Twenty heartbeats in a row, each a change: one row, for the first.
    for (let i = 0; i < 20; i++) await report(i % 2 === 0 ? 'inactive' : 'active');
    expect((await rows()).map((row) => row.details)).toEqual([expect.objectContaining({ from: 'active', to: 'inactive', changes: 1 })]);
    // Twenty that change nothing write nothing.
    for (let i = 0; i < 20; i++) await report('active');
    expect(await rows()).toHaveLength(1);

    // A change into error is written within the hour, counting the changes since the last row.
    await report('error');
    expect((await rows()).map((row) => row.details)[1]).toMatchObject({ from: 'active', to: 'error', changes: 20 });
    // Flapping out of error and back is not, while the last row says error.
    for (let i = 0; i < 10; i++) await report(i % 2 === 0 ? 'active' : 'error');
    expect(await rows()).toHaveLength(2);

    // An hour after the last row, the next change is written, with the changes it stands for.
    await sql`update agent_activations set status_audited_at = status_audited_at - interval '61 minutes' where id = ${activationId}`.execute(
      db(),
    );
    await report('active');
    expect((await rows()).map((row) => row.details)[2]).toMatchObject({ from: 'error', to: 'active', changes: 11 });
  });

  it('answers 404 without a live activation in reach, and changes nothing', async () => {
    for (const body of [
      { organization_id: w.id('T1'), agent: 'unused', status: 'active' },
      { organization_id: w.id('T1'), agent: 'ghost', status: 'active' },
      { organization_id: w.id('SA3'), agent: 'bot', status: 'active' },
      { organization_id: deleted.id, agent: 'bot', status: 'active' },
    ]) {
      const response = await beat(body);
      expect(response.status, JSON.stringify(body)).toBe(404);
      expect(response.body.error.message).toBe(m.noLiveActivation);
    }
    const foreign = await db()
      .selectFrom('agent_activations')
      .select('last_active_at')
      .where('organization_id', '=', w.id('SA3'))
      .executeTakeFirstOrThrow();
    expect(foreign.last_active_at).toBeNull();
  });
});

describe('GET /api/v1/entitlements', () => {
  const ask = (org: string, agent: string) =>
    w.t.request('GET', `/api/v1/entitlements?organization_id=${org}&agent=${agent}`, undefined, {
      headers: { authorization: `Bearer ${key.key}` },
    });

  it('allows a live activation with credits, and otherwise names the first reason with the balance', async () => {
    const cases: [string, string, Record<string, unknown>][] = [
      [w.id('T1'), 'bot', { allowed: true, reason: null, activation_status: 'error' }],
      [w.id('T1'), 'ghost', { allowed: false, reason: 'unknown_agent', activation_status: null, price: null }],
      [w.id('T1'), 'unused', { allowed: false, reason: 'agent_not_active', activation_status: null, price: '1.0000' }],
      [w.id('T2'), 'bot', { allowed: false, reason: 'organization_not_active', balance: '10.00' }],
      [w.id('SA1'), 'bot', { allowed: false, reason: 'out_of_reach', balance: '0.00', activation_status: null, price: null }],
      [w.id('SA3'), 'bot', { allowed: false, reason: 'out_of_reach', balance: '0.00', activation_status: null }],
      [deleted.id, 'bot', { allowed: false, reason: 'out_of_reach', balance: '0.00' }],
    ];
    for (const [org, agent, expected] of cases) {
      const response = await ask(org, agent);
      expect(response.status).toBe(200);
      expect(response.body, `${org} ${agent}`).toMatchObject(expected);
    }
    const empty = await insertOrg(db(), { name: 'Empty Tenant', type: 'tenant', parentId: w.id('A1') });
    await activate(db(), empty.id, agents.bot!.id);
    expect((await ask(empty.id, 'bot')).body).toEqual({
      allowed: false,
      reason: 'insufficient_credits',
      cap: null,
      balance: '0.00',
      spendable: '0.00',
      soonest_expiry: null,
      activation_status: 'active',
      price: '0.2500',
    });
  });
});

describe('API key use', () => {
  it('is counted without a write per request: the count and last use arrive within a second or so', async () => {
    const fresh = await insertApiKey(db(), w.id('A1'), { name: 'counted' });
    for (let i = 0; i < 5; i++)
      expect(
        (
          await w.t.request('GET', `/api/v1/entitlements?organization_id=${w.id('T1')}&agent=bot`, undefined, {
            headers: { authorization: `Bearer ${fresh.key}` },
          })
        ).status,
      ).toBe(200);
    let row = { use_count: '0', last_used_at: null as string | null };
    for (let tries = 0; tries < 40 && row.use_count !== '5'; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      row = await db().selectFrom('api_keys').select(['use_count', 'last_used_at']).where('id', '=', fresh.id).executeTakeFirstOrThrow();
    }
    expect(String(row.use_count)).toBe('5');
    expect(row.last_used_at).not.toBeNull();
  });
});

describe('reconciliation of metered usage names the organization whose books were broken', () => {
  it('finds a carry that does not match the events', async () => {
    await sql`update usage_carry set carry = carry + 0.001 where organization_id = ${lean.id} and agent_type_id = ${agents.cheap!.id}`.execute(
      db(),
    );
    const report = await reconcile(db());
    expect(report.ok).toBe(false);
    expect(report.usage_carry_mismatches).toEqual([
      { organization_id: lean.id, agent_type_id: agents.cheap!.id, cost: '2.33310000', charged: '2.33', carry: '0.00410000' },
    ]);
    await sql`update usage_carry set carry = carry - 0.001 where organization_id = ${lean.id} and agent_type_id = ${agents.cheap!.id}`.execute(
      db(),
    );
    expect((await reconcile(db())).ok).toBe(true);
  });

  it('finds an event whose charge differs from its ledger entry', async () => {
    const event = await db()
      .selectFrom('usage_events')
      .select(['id', 'organization_id'])
      .where('client_event_id', '=', 'e1')
      .executeTakeFirstOrThrow();
    await sql`update usage_events set charged = 1.01, cost = 1.01 where id = ${event.id}`.execute(db());
    const report = await reconcile(db());
    expect(report.ok).toBe(false);
    expect(report.usage_entry_mismatches).toEqual([
      {
        organization_id: event.organization_id,
        ledger_entry_id: expect.any(String),
        problem: 'entry differs',
        entry: 'consumption -1.00 for 4.0000 units',
        events: '1 events charged 1.01 for 4.0000 units',
      },
    ]);
    // The carry is checked against units × price, not the stored cost, so the changed charge shows there too.
    expect(report.usage_carry_mismatches).toEqual([
      expect.objectContaining({ organization_id: event.organization_id, charged: expect.any(String) }),
    ]);
    await sql`update usage_events set charged = 1.00, cost = 1.00 where id = ${event.id}`.execute(db());
    expect((await reconcile(db())).ok).toBe(true);
  });

  it('finds a consumption entry of an agent that no event charged', async () => {
    const org = await insertOrg(db(), { name: 'Orphan Tenant', type: 'tenant', parentId: w.id('A1') });
    await fund(db(), org.id, '1.00');
    await sql`
      with b as (update organization_billing_settings set credit_balance = 0.50 where organization_id = ${org.id} returning organization_id)
      insert into credit_ledger_entries (organization_id, amount, entry_type, transaction_group, balance_after, agent_type_id, units)
      select organization_id, -0.50, 'consumption', gen_random_uuid(), 0.50, ${agents.bot!.id}, 2 from b`.execute(db());
    const report = await reconcile(db());
    expect(report.usage_entry_mismatches).toEqual([
      {
        organization_id: org.id,
        ledger_entry_id: expect.any(String),
        problem: 'entry without usage event',
        entry: 'consumption -0.50 for 2.0000 units',
        events: null,
      },
    ]);
    expect(report.balance_mismatches).toEqual([]);
  });

  it('finds a balance that went below zero, even when every sum still agrees', async () => {
    const org = await insertOrg(db(), { name: 'Overdrawn Tenant', type: 'tenant', parentId: w.id('A1') });
    // -1.00 then +1.00: the sum and the last balance_after are 0.00, but the balance went to -1.00 between them.
    await sql`
      insert into credit_ledger_entries (organization_id, amount, entry_type, transaction_group, balance_after, created_at) values
        (${org.id}, -1.00, 'adjustment_decrease', gen_random_uuid(), 0.00, now() - interval '1 minute'),
        (${org.id}, 1.00, 'adjustment_increase', gen_random_uuid(), 0.00, now())`.execute(db());
    const report = await reconcile(db());
    expect(report.balance_mismatches.filter((r) => r.organization_id === org.id)).toEqual([]);
    expect(report.balance_chain_breaks.filter((r) => r.organization_id === org.id)).toEqual([
      { organization_id: org.id, ledger_entry_id: expect.any(String), running: '-1.00', balance_after: '0.00' },
    ]);
  });
});
