import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES } from '@console/domain';
import { balanceOf } from '../../test/books.ts';
import { parseCsv } from '../../test/csv.ts';
import { useWorld } from '../../test/harness.ts';
import { runTopUpsNow } from '../../test/top-up-run.ts';
import { activate, insertAgentType, insertApiKey } from '../../test/usage-rows.ts';

/**
 * Statements over a tree that moved credits every way in the month under way (through the
 * API: an adjustment, allocations, a new organization with credits, a reversal, usage with
 * earnings, an automatic top-up, a refund), after a history dated in the two months before
 * (posted by the one ledger writer with the entries' date set, as the demo seed dates its own).
 * The world: H ─ SA1 ─ A1 ─ T1, T2 (+ T3 made here), SA1 ─ A2, H ─ SA2 ─ A3.
 */
const w = useWorld({ topUpPollMs: 3_600_000 });
const db = () => w.t.database.db;
const id = (key: Parameters<typeof w.id>[0]) => w.id(key);

const now = new Date();
const monthOf = (offset: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)).toISOString().slice(0, 7);
const dayOf = (offset: number, day: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, day, 12));
const [M0, M1, M2, M3] = [monthOf(0), monthOf(-1), monthOf(-2), monthOf(-3)];

const as = async (who: string, method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) =>
  w.t.request(method, path, body, { token: await w.as(who) });
const ok = async (who: string, method: 'POST' | 'PUT', path: string, body: unknown) => {
  const response = await as(who, method, path, body);
  expect([200, 201], JSON.stringify(response.body)).toContain(response.status);
  return response.body;
};
const statement = (who: string, org: string, month: string) => as(who, 'GET', `/api/organizations/${org}/statements/${month}`);
const read = async (who: string, org: string, month: string) => {
  const response = await statement(who, org, month);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
};
const lastHash = async (org: string, before: Date = new Date(Date.now() + 60_000)) => {
  const { rows } = await sql<{ code: string }>`
    select encode(hash, 'hex') as code from credit_ledger_entries where organization_id = ${org} and created_at < ${before.toISOString()}
    order by created_at desc, seq desc limit 1`.execute(db());
  return rows[0]?.code ?? null;
};
const cents = (amount: string) => BigInt(amount.replace('.', ''));

/** Movements posted by ledger_post with every entry dated `at` (the setting console.ledger_at, for the transaction). */
async function postDated(at: Date, orgs: string[], amounts: string[], types: string[], metas: object[]) {
  await db()
    .transaction()
    .execute(async (trx) => {
      await sql`select set_config('console.ledger_at', ${at.toISOString()}, true)`.execute(trx);
      await sql`select 1 from ledger_post(gen_random_uuid(), null, false, ${orgs}::uuid[], ${amounts}::numeric[], ${types}::text[],
                ${metas.map((m) => JSON.stringify(m))}::jsonb[])`.execute(trx);
    });
}

let bot: { id: string; code: string };
let T3: string;

beforeAll(async () => {
  // Two months back: A1 is given 400; last month it allocates 100 to T2 and 50 is taken back.
  await postDated(dayOf(-2, 10), [id('A1')], ['400.00'], ['adjustment_increase'], [{ reason: 'opening credits' }]);
  await postDated(
    dayOf(-1, 5),
    [id('A1'), id('T2')],
    ['-100.00', '100.00'],
    ['allocation_sent', 'allocation_received'],
    [
      { to_org_id: id('T2'), to_org_name: 'Tenant Two', notes: 'last month' },
      { from_org_id: id('A1'), from_org_name: 'Agency One', notes: 'last month' },
    ],
  );
  await postDated(dayOf(-1, 20), [id('A1')], ['-50.00'], ['adjustment_decrease'], [{ reason: 'correction' }]);

  // This month, through the API.
  await ok('H.admin', 'POST', '/api/credits/adjustments', { direction: 'increase', amount: '10000', reason: 'Statement tests' });
  await ok('H.admin', 'POST', '/api/credits/allocations', { from_org_id: id('H'), to_org_id: id('SA1'), amount: '5000' });
  await ok('SA1.admin', 'POST', '/api/credits/allocations', { from_org_id: id('SA1'), to_org_id: id('A1'), amount: '2000' });
  await ok('A1.admin', 'POST', '/api/credits/allocations', { from_org_id: id('A1'), to_org_id: id('T1'), amount: '500' });
  const toT2 = await ok('A1.admin', 'POST', '/api/credits/allocations', { from_org_id: id('A1'), to_org_id: id('T2'), amount: '300' });
  await ok('A1.admin', 'POST', `/api/credits/allocations/${toT2.transaction_id}/reversal`, { reason: 'Sent to the wrong tenant' });
  T3 = (await ok('A1.admin', 'POST', '/api/organizations', { name: 'Tenant Three', org_type: 'tenant', initial_balance: '20' }))
    .organization.id;
  // Renamed since: the statement names it as it is called today.
  await sql`update organizations set name = 'Tenant Three Renamed' where id = ${T3}`.execute(db());

  // Usage: T1 pays 0.3750 a unit, A1 0.3000, SA1 0.2500 (the catalog): A1 earns 0.0750 a unit through T1, SA1 0.0500 through A1.
  bot = await insertAgentType(db(), 'sbot', '0.2500');
  await activate(db(), id('T1'), bot.id);
  await ok('SA1.admin', 'PUT', `/api/organizations/${id('SA1')}/prices/${bot.id}`, { price: '0.3000' });
  await ok('A1.admin', 'PUT', `/api/organizations/${id('A1')}/prices/${bot.id}`, { price: '0.3750' });
  // T1 tops up 100 from A1 once its balance falls below 480.
  await sql`update organization_billing_settings set top_up_below = 480, top_up_amount = 100, top_up_monthly_max = 1000
            where organization_id = ${id('T1')}`.execute(db());
  const { key } = await insertApiKey(db(), id('A1'));
  const report = await w.t.request(
    'POST',
    '/api/v1/usage-events',
    { events: [{ id: 'st-1', organization_id: id('T1'), agent: 'sbot', units: '100', occurred_at: new Date().toISOString() }] },
    { headers: { authorization: `Bearer ${key}` } },
  );
  expect(report.body.results[0], JSON.stringify(report.body)).toMatchObject({ status: 'accepted', credits_charged: '37.50' });
  await runTopUpsNow(db(), w.t.app.log);
  const refund = await ok('H.admin', 'POST', '/api/credits/usage', {
    refunds: [{ organization_id: id('T1'), amount: '5.00', external_ref: 'st-refund-1', refund_of: 'st-1', reason: 'Failed run' }],
  });
  expect(refund.refunds[0].status, JSON.stringify(refund)).toBe('recorded');
  await ok('H.admin', 'POST', '/api/credits/adjustments', { direction: 'decrease', amount: '10', reason: 'Statement tests' });
});

const org = (key: 'SA1' | 'A1' | 'T1' | 'T2') => ({
  id: id(key),
  name: { SA1: 'Super One', A1: 'Agency One', T1: 'Tenant One', T2: 'Tenant Two' }[key],
});
const group = (kind: string, amount: string, extra: object = {}) => ({
  kind,
  counterparty: null,
  agent: null,
  units: null,
  unit_price: null,
  entries: 1,
  amount,
  ...extra,
});

describe("an organization's statement of the month under way", () => {
  it('groups every movement by kind and counterparty, and closes to the ledger balance to the cent', async () => {
    const body = await read('A1.admin', id('A1'), M0);
    expect(body).toMatchObject({
      organization: { id: id('A1'), name: 'Agency One', org_type: 'agency' },
      month: M0,
      period_start: `${M0}-01T00:00:00.000Z`,
      period_end: `${monthOf(1)}-01T00:00:00.000Z`,
      partial: true,
      opening_balance: '250.00',
      closing_balance: '1637.50',
      credits_in: '2307.50',
      credits_out: '-920.00',
      entries: 7,
    });
    expect(body.groups).toEqual([
      group('allocation_received', '2000.00', { counterparty: org('SA1') }),
      group('allocation_sent', '-500.00', { counterparty: org('T1') }),
      group('allocation_sent', '-20.00', { counterparty: { id: T3, name: 'Tenant Three Renamed' } }),
      group('allocation_sent', '-300.00', { counterparty: org('T2') }),
      group('top_up_sent', '-100.00', { counterparty: org('T1') }),
      group('earning', '7.50', { counterparty: org('T1') }),
      group('reversal_received', '300.00', { counterparty: org('T2') }),
    ]);
    expect(body.closing_balance).toBe(await balanceOf(db(), id('A1')));
    expect(body.verification_code).toBe(await lastHash(id('A1')));
  });

  it('shows consumption by agent with units and the price per unit, top-ups and refunds', async () => {
    const body = await read('T1.admin', id('T1'), M0);
    const agent = { id: bot.id, name: 'Agent sbot' };
    expect(body.groups).toEqual([
      group('allocation_received', '500.00', { counterparty: org('A1') }),
      group('top_up_received', '100.00', { counterparty: org('A1') }),
      group('consumption', '-37.50', { agent, units: '100.0000', unit_price: '0.375000' }),
      group('refund', '5.00', { agent }),
    ]);
    expect(body).toMatchObject({ opening_balance: '0.00', closing_balance: '567.50', credits_in: '605.00', credits_out: '-37.50' });
    expect(body.closing_balance).toBe(await balanceOf(db(), id('T1')));
  });

  it('names initial balances, reversals given back, adjustments and earnings through a child', async () => {
    expect((await read('A1.admin', T3, M0)).groups).toEqual([group('initial_balance', '20.00', { counterparty: org('A1') })]);
    const t2 = await read('A1.admin', id('T2'), M0);
    expect(t2).toMatchObject({ opening_balance: '100.00', closing_balance: '100.00', credits_in: '300.00', credits_out: '-300.00' });
    expect(t2.groups).toEqual([
      group('allocation_received', '300.00', { counterparty: org('A1') }),
      group('reversal_sent', '-300.00', { counterparty: org('A1') }),
    ]);
    const house = await read('H.admin', id('H'), M0);
    expect(house.groups).toEqual([
      group('allocation_sent', '-5000.00', { counterparty: org('SA1') }),
      group('adjustment_increase', '10000.00'),
      group('adjustment_decrease', '-10.00'),
    ]);
    expect(house.closing_balance).toBe(await balanceOf(db(), id('H')));
    const sa1 = await read('SA1.admin', id('SA1'), M0);
    expect(sa1.groups.find((g: { kind: string }) => g.kind === 'earning')).toEqual(group('earning', '5.00', { counterparty: org('A1') }));
    expect(sa1.closing_balance).toBe(await balanceOf(db(), id('SA1')));
  });

  it('from above, withholds what the margins rule withholds: the child an earning came through, a price paid further down', async () => {
    const seen = await read('SA1.admin', id('A1'), M0);
    expect(seen.groups.find((g: { kind: string }) => g.kind === 'earning')).toEqual(group('earning', '7.50'));
    expect(seen.closing_balance).toBe('1637.50');
    const consumption = (await read('SA1.admin', id('T1'), M0)).groups.find((g: { kind: string }) => g.kind === 'consumption');
    expect(consumption).toMatchObject({ units: '100.0000', unit_price: null, amount: '-37.50' });
    // Its seller set that price, and sees it.
    expect((await read('A1.admin', id('T1'), M0)).groups[2].unit_price).toBe('0.375000');
  });
});

describe('the months before', () => {
  it('holds only the entries dated in the month, between the balance before it and the one at its end', async () => {
    const last = await read('A1.admin', id('A1'), M1);
    expect(last).toMatchObject({ partial: false, opening_balance: '400.00', closing_balance: '250.00', credits_in: '0.00', entries: 2 });
    expect(last.groups).toEqual([group('allocation_sent', '-100.00', { counterparty: org('T2') }), group('adjustment_decrease', '-50.00')]);
    expect(last.verification_code).toBe(await lastHash(id('A1'), new Date(`${M0}-01T00:00:00Z`)));
    const before = await read('A1.admin', id('A1'), M2);
    expect(before).toMatchObject({ opening_balance: '0.00', closing_balance: '400.00', entries: 1 });
    expect(before.groups).toEqual([group('adjustment_increase', '400.00')]);
    const empty = await read('A1.admin', id('A1'), M3);
    expect(empty).toMatchObject({ opening_balance: '0.00', closing_balance: '0.00', groups: [], entries: 0, verification_code: null });
  });

  it('chain from one month to the next: each closing balance is the next opening balance', async () => {
    const months = await Promise.all([M3, M2, M1, M0].map((month) => read('A1.admin', id('A1'), month)));
    for (let i = 1; i < months.length; i++) expect(months[i].opening_balance).toBe(months[i - 1].closing_balance);
    for (const month of months) {
      const sum = month.groups.reduce((total: bigint, g: { amount: string }) => total + cents(g.amount), 0n);
      expect(cents(month.opening_balance) + sum).toBe(cents(month.closing_balance));
    }
  });

  it('refuses a month that has not started (422), and a malformed month (400)', async () => {
    const future = await statement('A1.admin', id('A1'), monthOf(1));
    expect(future.status).toBe(422);
    expect(future.body.error.message).toBe(MESSAGES.invoices.monthInFuture);
    expect((await statement('A1.admin', id('A1'), `${now.getUTCFullYear()}-13`)).status).toBe(400);
    expect((await statement('A1.admin', id('A1'), '2025-1')).status).toBe(400);
  });
});

describe('who reads a statement', () => {
  it("is who reads the organization's ledger: its own people and those above it", async () => {
    for (const who of ['A1.admin', 'A1.user', 'A1.support', 'SA1.admin', 'SA1.manager', 'H.admin']) {
      expect((await statement(who, id('A1'), M0)).status, who).toBe(200);
    }
  });

  it('is nobody else: a child, a sibling, another branch and a stranger get 404, as for an unknown organization', async () => {
    const cases: [string, string][] = [
      ['T1.admin', id('A1')],
      ['T1.admin', id('T2')],
      ['A1.admin', id('A2')],
      ['A1.admin', id('A3')],
      ['SA1.admin', id('SA2')],
      ['H.admin', id('SA3')],
      ['A1.admin', '00000000-0000-4000-8000-000000000000'],
    ];
    for (const [who, target] of cases) {
      for (const suffix of ['', '/csv', '/pdf', `/verify?code=${'a'.repeat(64)}`]) {
        const response = await as(who, 'GET', `/api/organizations/${target}/statements/${M0}${suffix}`);
        expect(response.status, `${who} ${target}${suffix}`).toBe(404);
      }
    }
  });
});

describe('the statement as CSV and PDF', () => {
  it('is one row per group between the opening and closing rows, with stable columns, as an attachment', async () => {
    const response = await fetch(`${w.t.baseUrl}/api/organizations/${id('A1')}/statements/${M0}/csv`, {
      headers: { authorization: `Bearer ${await w.as('A1.admin')}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="statement-${id('A1')}-${M0}.csv"`);
    const [header, ...rows] = parseCsv(await response.text());
    expect(header).toEqual([
      'section',
      'kind',
      'label',
      'counterparty_id',
      'counterparty_name',
      'agent_id',
      'agent_name',
      'units',
      'unit_price',
      'entries',
      'amount',
    ]);
    const json = await read('A1.admin', id('A1'), M0);
    expect(rows).toHaveLength(json.groups.length + 3);
    expect(rows[0]).toEqual(['opening', 'opening_balance', 'Opening balance', '', '', '', '', '', '', '', '250.00']);
    expect(rows[1]).toEqual([
      'movement',
      'allocation_received',
      'Allocations received',
      id('SA1'),
      'Super One',
      '',
      '',
      '',
      '',
      '1',
      '2000.00',
    ]);
    expect(rows.at(-2)).toEqual(['closing', 'closing_balance', 'Closing balance', '', '', '', '', '', '', '7', '1637.50']);
    expect(rows.at(-1)).toEqual(['verification', 'verification_code', json.verification_code, '', '', '', '', '', '', '', '']);
    const movements = rows.filter((row) => row[0] === 'movement').reduce((sum, row) => sum + cents(row[10]!), 0n);
    expect(cents('250.00') + movements).toBe(cents('1637.50'));
  });

  it('is a PDF', async () => {
    const response = await fetch(`${w.t.baseUrl}/api/organizations/${id('T1')}/statements/${M0}/pdf`, {
      headers: { authorization: `Bearer ${await w.as('T1.admin')}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="statement-${id('T1')}-${M0}.pdf"`);
    expect(
      Buffer.from(await response.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });
});
