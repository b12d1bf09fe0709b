import { describe, expect, inject, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES, UNSTORABLE_TEXT } from '@console/domain';
import { balanceOf, creditsInSystem, ledgerEntryCount } from '../../test/books.ts';
import { useWorld } from '../../test/harness.ts';
import { PASSWORD, insertOrg, insertUser } from '../../test/fixtures.ts';
import { activate, insertAgentType } from '../../test/usage-rows.ts';
import { reconcile } from './reconcile.ts';

const w = useWorld();
const as = (who: string) => w.as(who);
/**
 * Where the concurrency tests below prove the locks: on PostgreSQL their requests run truly
 * concurrently; PGlite runs one statement at a time, so there they check the arithmetic only.
 */
const concurrency = inject('pgServerUrl') ? 'PostgreSQL: truly concurrent, proves the locks' : 'PGlite: serialized, arithmetic only';
const id = (key: Parameters<typeof w.id>[0]) => w.id(key);

/** The agent the imports below meter: 1.0000 credit a unit, so a charge is its units. */
let metered: Promise<{ id: string; code: string }> | null = null;
const activated = new Set<string>();
async function meteredFor(orgId: string) {
  metered ??= insertAgentType(w.t.database.db, 'metered', '1.0000');
  const agent = await metered;
  if (!activated.has(orgId)) {
    activated.add(orgId);
    await activate(w.t.database.db, orgId, agent.id);
  }
  return agent.code;
}
/** A usage event of the metered agent, occurred a minute ago. */
async function event(orgId: string, id: string, units: string, metadata?: Record<string, unknown>) {
  return {
    id,
    organization_id: orgId,
    agent: await meteredFor(orgId),
    units,
    occurred_at: new Date(Date.now() - 60_000).toISOString(),
    ...(metadata && { metadata }),
  };
}

const balance = (orgId: string) => balanceOf(w.t.database.db, orgId);
const total = () => creditsInSystem(w.t.database.db);
const entryCount = () => ledgerEntryCount(w.t.database.db);
const allocate = async (who: string, body: Record<string, unknown>, key?: string) =>
  w.t.request('POST', '/api/credits/allocations', body, { token: await as(who), headers: key ? { 'idempotency-key': key } : {} });

describe('adjustments: credits enter and leave only through house admins', () => {
  it('adds and removes credits on the own house, never below zero', async () => {
    const token = await as('H.admin');
    const up = await w.t.request(
      'POST',
      '/api/credits/adjustments',
      { direction: 'increase', amount: '1000', reason: 'Opening balance' },
      { token },
    );
    expect(up.status).toBe(200);
    expect(up.body.entry).toMatchObject({
      entry_type: 'adjustment_increase',
      amount: '1000.00',
      balance_after: '1000.00',
      metadata: { reason: 'Opening balance' },
    });
    const down = await w.t.request(
      'POST',
      '/api/credits/adjustments',
      { direction: 'decrease', amount: 0.5, reason: 'Correction' },
      { token },
    );
    expect(down.body.entry).toMatchObject({ amount: '-0.50', balance_after: '999.50' });
    const tooMuch = await w.t.request(
      'POST',
      '/api/credits/adjustments',
      { direction: 'decrease', amount: '5000', reason: 'Too much' },
      { token },
    );
    expect(tooMuch.status).toBe(422);
    expect(await balance(id('H'))).toBe('999.50');
  });

  it.each(['H.manager', 'SA1.admin', 'T1.admin'])('%s may not adjust', async (who) => {
    const before = await total();
    const response = await w.t.request(
      'POST',
      '/api/credits/adjustments',
      { direction: 'increase', amount: '10', reason: 'Free money' },
      { token: await as(who) },
    );
    expect(response.status).toBe(403);
    expect(await total()).toBe(before);
  });
});

describe('allocation', () => {
  it('moves an exact amount to a direct child, with paired entries', async () => {
    const before = await total();
    const response = await allocate('H.admin', { from_org_id: id('H'), to_org_id: id('SA1'), amount: 100.1, notes: 'Q1 budget' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ transaction_id: expect.any(String), from_balance: '899.40', to_balance: '100.10' });
    const entries = await w.t.database.db
      .selectFrom('credit_ledger_entries')
      .selectAll()
      .where('transaction_group', '=', response.body.transaction_id)
      .orderBy('seq')
      .execute();
    expect(entries.map((e) => [e.organization_id, e.entry_type, e.amount, e.balance_after])).toEqual([
      [id('H'), 'allocation_sent', '-100.10', '899.40'],
      [id('SA1'), 'allocation_received', '100.10', '100.10'],
    ]);
    expect(entries[0]!.metadata).toMatchObject({ to_org_id: id('SA1'), notes: 'Q1 budget' });
    expect(entries[1]!.metadata).toMatchObject({ from_org_id: id('H'), notes: 'Q1 budget' });
    expect(await total()).toBe(before);
  });

  it('refuses every bad request and writes nothing', async () => {
    await w.t.database.db.updateTable('organizations').set({ status: 'inactive' }).where('id', '=', id('SA2')).execute();
    const before = await entryCount();
    const cases: [string, Record<string, unknown>, number, string | null][] = [
      ['H.admin', { from_org_id: id('H'), to_org_id: id('A1'), amount: 1 }, 422, MESSAGES.credits.notDirectChild],
      ['H.admin', { from_org_id: id('H'), to_org_id: id('SA2'), amount: 1 }, 422, MESSAGES.credits.notDirectChild],
      ['H.admin', { from_org_id: id('H'), to_org_id: id('SA1'), amount: 100000 }, 422, MESSAGES.credits.insufficient('899.40')],
      ['H.admin', { from_org_id: id('H'), to_org_id: id('SA1'), amount: -5 }, 400, MESSAGES.credits.amountPositive],
      ['H.admin', { from_org_id: id('H'), to_org_id: id('SA1'), amount: 0 }, 400, MESSAGES.credits.amountPositive],
      ['H.admin', { from_org_id: id('H'), to_org_id: id('SA1'), amount: 1.005 }, 400, MESSAGES.credits.amountInvalid],
      ['H.admin', { from_org_id: id('H'), to_org_id: id('SA1'), amount: 'ten' }, 400, MESSAGES.credits.amountInvalid],
      ['H.admin', { from_org_id: id('H'), to_org_id: id('SA1'), amount: 1e15 }, 400, MESSAGES.credits.amountInvalid],
      ['H.admin', { from_org_id: id('H'), to_org_id: id('SA1'), amount: true }, 400, MESSAGES.credits.amountNotNumber],
      ['H.manager', { from_org_id: id('H'), to_org_id: id('SA1'), amount: 1 }, 403, null],
      ['H.support', { from_org_id: id('H'), to_org_id: id('SA1'), amount: 1 }, 403, null],
      ['H.admin', { from_org_id: id('SA1'), to_org_id: id('A1'), amount: 1 }, 403, MESSAGES.credits.onlyOwnOrganization],
      ['SA1.admin', { from_org_id: id('H'), to_org_id: id('SA1'), amount: 1 }, 404, null],
      ['H.admin', { from_org_id: id('H'), to_org_id: id('SA3'), amount: 1 }, 404, null],
      ['SA1.admin', { from_org_id: id('SA1'), to_org_id: id('A3'), amount: 1 }, 404, null],
    ];
    for (const [who, body, status, message] of cases) {
      const response = await allocate(who, body);
      expect(response.status, `${who} ${JSON.stringify(body)}`).toBe(status);
      if (message) expect(response.body.error.message).toBe(message);
    }
    expect(await entryCount()).toBe(before);
    await w.t.database.db.updateTable('organizations').set({ status: 'active' }).where('id', '=', id('SA2')).execute();
  });

  it('returns the first result for a retried Idempotency-Key and moves nothing twice', async () => {
    const body = { from_org_id: id('H'), to_org_id: id('SA2'), amount: '25.00' };
    const first = await allocate('H.admin', body, 'retry-key-1');
    const again = await allocate('H.admin', body, 'retry-key-1');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await balance(id('SA2'))).toBe('25.00');
    const other = await allocate('H.admin', { ...body, amount: '26.00' }, 'retry-key-1');
    expect(other.status).toBe(409);
    expect(other.body.error.message).toBe(MESSAGES.credits.idempotencyConflict);
    expect(await balance(id('SA2'))).toBe('25.00');
  });
});

describe('initial balance on creation', () => {
  it('moves the credits from the parent, so none are made', async () => {
    const before = await total();
    const parentBefore = await balance(id('SA1'));
    const response = await w.t.request(
      'POST',
      '/api/organizations',
      { name: 'Funded Agency', org_type: 'agency', initial_balance: '10.05' },
      { token: await as('SA1.admin') },
    );
    expect(response.status).toBe(201);
    expect(response.body.organization.credit_balance).toBe('10.05');
    expect(Number(await balance(id('SA1')))).toBeCloseTo(Number(parentBefore) - 10.05, 2);
    const entries = await w.t.database.db
      .selectFrom('credit_ledger_entries')
      .select(['entry_type', 'amount'])
      .where('organization_id', '=', response.body.organization.id)
      .execute();
    expect(entries).toEqual([{ entry_type: 'initial_balance', amount: '10.05' }]);
    expect(await total()).toBe(before);
  });

  it('refuses more than the parent holds, creating nothing', async () => {
    const orgs = await w.t.database.db.selectFrom('organizations').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    const response = await w.t.request(
      'POST',
      '/api/organizations',
      { name: 'Overfunded', org_type: 'agency', initial_balance: '99999' },
      { token: await as('SA1.admin') },
    );
    expect(response.status).toBe(422);
    const after = await w.t.database.db.selectFrom('organizations').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(orgs.n);
  });
});

describe('usage: events charged by the engine, and refunds', () => {
  it('charges each event once by its id, refunds what a consumption took, and never goes below zero', async () => {
    const token = await as('H.admin');
    await allocate('SA1.admin', { from_org_id: id('SA1'), to_org_id: id('A1'), amount: '40' });
    const body = {
      events: [
        await event(id('A1'), 'usage-1', '12.25', { tokens: 1200 }),
        await event(id('A1'), 'usage-1', '12.25'),
        await event(id('A1'), 'usage-3', '1000'),
      ],
      refunds: [{ organization_id: id('A1'), amount: '2.25', external_ref: 'usage-2', refund_of: 'usage-1' }],
    };
    const response = await w.t.request('POST', '/api/credits/usage', body, { token });
    expect(response.status).toBe(200);
    expect(response.body.results.map((r: any) => [r.status, r.credits_charged, r.reason])).toEqual([
      ['accepted', '12.25', null],
      ['duplicate', '12.25', null],
      ['rejected', null, 'insufficient_credits'],
    ]);
    expect(response.body.results[2].message).toBe(MESSAGES.usage.insufficient('27.75', '1000.00'));
    expect(response.body).toMatchObject({ accepted: 1, duplicates: 1, rejected: 1 });
    expect(response.body.refunds).toEqual([{ external_ref: 'usage-2', status: 'recorded', entry_id: expect.any(String), message: null }]);
    expect(await balance(id('A1'))).toBe('30.00');
    // The import's consumption entry of that agent, which its event links to; the event keeps its own metadata.
    const consumption = await w.t.database.db
      .selectFrom('usage_events as u')
      .innerJoin('credit_ledger_entries as l', 'l.id', 'u.ledger_entry_id')
      .select(['l.metadata', 'l.amount', 'l.entry_type', 'l.units', 'l.agent_type_id', 'l.external_ref', 'u.source', 'u.metadata as usage'])
      .where('u.client_event_id', '=', 'usage-1')
      .execute();
    expect(consumption).toEqual([
      {
        metadata: expect.objectContaining({ agent: 'metered', events: 1, units: '12.2500' }),
        amount: '-12.25',
        entry_type: 'consumption',
        units: '12.2500',
        agent_type_id: (await metered)!.id,
        external_ref: null,
        source: 'import',
        usage: { tokens: 1200 },
      },
    ]);
    // The same import again: every event a duplicate, the refund too; nothing moves.
    const again = await w.t.request('POST', '/api/credits/usage', body, { token });
    expect(again.body.results.map((r: any) => r.status)).toEqual(['duplicate', 'duplicate', 'rejected']);
    expect(again.body.refunds.map((r: any) => r.status)).toEqual(['duplicate']);
    expect(await balance(id('A1'))).toBe('30.00');
    expect((await w.t.request('POST', '/api/credits/usage', body, { token: await as('SA1.admin') })).status).toBe(403);
  });

  it('rejects each event and refund out of reach alone, recording the rest', async () => {
    const body = {
      events: [await event(id('A1'), 'usage-in-reach', '1'), await event(id('SA3'), 'usage-foreign', '1')],
      refunds: [{ organization_id: id('SA3'), amount: '5.00', external_ref: 'refund-foreign', refund_of: 'usage-foreign' }],
    };
    const response = await w.t.request('POST', '/api/credits/usage', body, { token: await as('H.admin') });
    expect(response.status).toBe(200);
    expect(response.body.results.map((r: any) => [r.status, r.reason, r.message])).toEqual([
      ['accepted', null, null],
      ['rejected', 'out_of_reach', MESSAGES.usage.outOfReach],
    ]);
    expect(response.body.refunds).toEqual([
      { external_ref: 'refund-foreign', status: 'rejected', entry_id: null, message: MESSAGES.usage.outOfReach },
    ]);
    const foreign = await w.t.database.db
      .selectFrom('credit_ledger_entries')
      .select('id')
      .where('organization_id', '=', id('SA3'))
      .execute();
    expect(foreign).toEqual([]);
  });

  it('answers 400 to an import with nothing in it and to a refund that names no consumption', async () => {
    const token = await as('H.admin');
    const before = await entryCount();
    const empty = await w.t.request('POST', '/api/credits/usage', { events: [], refunds: [] }, { token });
    expect(empty.status).toBe(400);
    const unnamed = await w.t.request(
      'POST',
      '/api/credits/usage',
      { refunds: [{ organization_id: id('A1'), amount: '1.00', external_ref: 'refund-naming-nothing' }] },
      { token },
    );
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.error.fields).toEqual({ 'refunds.0.refund_of': MESSAGES.credits.refundNeedsConsumption });
    expect(await entryCount()).toBe(before);
  });
});

describe('the ledger', () => {
  it('pages newest first with a cursor, filters, and stays in scope', async () => {
    const token = await as('H.admin');
    const first = await w.t.request('GET', `/api/credits/ledger?limit=2`, undefined, { token });
    expect(first.status).toBe(200);
    expect(first.body.entries).toHaveLength(2);
    expect(first.body.credit_balance).toBe(await balance(id('H')));
    const all: any[] = [...first.body.entries];
    let cursor = first.body.next_cursor;
    while (cursor) {
      const next = await w.t.request('GET', `/api/credits/ledger?limit=2&cursor=${cursor}`, undefined, { token });
      all.push(...next.body.entries);
      cursor = next.body.next_cursor;
    }
    const stored = await w.t.database.db
      .selectFrom('credit_ledger_entries')
      .select('id')
      .where('organization_id', '=', id('H'))
      .orderBy('created_at', 'desc')
      .orderBy('seq', 'desc')
      .execute();
    expect(all.map((e) => e.id)).toEqual(stored.map((e) => e.id));
    // The newest entry's balance_after is the balance.
    expect(all[0].balance_after).toBe(first.body.credit_balance);

    const sent = await w.t.request('GET', '/api/credits/ledger?entry_type=allocation_sent', undefined, { token });
    expect(sent.body.entries.every((e: any) => e.entry_type === 'allocation_sent')).toBe(true);
    const big = await w.t.request('GET', '/api/credits/ledger?amount_min=500', undefined, { token });
    expect(big.body.entries.map((e: any) => e.amount)).toEqual(['1000.00']);
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect((await w.t.request('GET', `/api/credits/ledger?from=${today}&to=${today}`, undefined, { token })).body.entries.length).toBe(
      Math.min(stored.length, 20),
    );
    expect((await w.t.request('GET', `/api/credits/ledger?to=${yesterday}`, undefined, { token })).body.entries).toHaveLength(0);

    expect(
      (await w.t.request('GET', `/api/credits/ledger?organization_id=${id('T1')}`, undefined, { token: await as('A1.user') })).status,
    ).toBe(200);
    expect(
      (await w.t.request('GET', `/api/credits/ledger?organization_id=${id('H')}`, undefined, { token: await as('SA1.admin') })).status,
    ).toBe(404);
    expect((await w.t.request('GET', '/api/credits/ledger?cursor=abc', undefined, { token })).status).toBe(400);
    expect((await w.t.request('GET', '/api/credits/ledger?entry_type=gift', undefined, { token })).status).toBe(400);
  });

  it('exports the same filtered rows as CSV with a header row', async () => {
    const response = await fetch(`${w.t.baseUrl}/api/credits/ledger/export?entry_type=allocation_sent`, {
      headers: { authorization: `Bearer ${await as('H.admin')}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    expect(response.headers.get('content-disposition')).toMatch(/attachment; filename="credit-ledger-/);
    const lines = (await response.text()).trim().split('\r\n');
    expect(lines[0]).toBe(
      'created_at,entry_type,amount,balance_after,description,actor,actor_email,counterparty,counterparty_org_id,notes,agent,units,transaction_group,reversed_by,external_ref,id',
    );
    const page = await w.t.request('GET', '/api/credits/ledger?entry_type=allocation_sent&limit=100', undefined, {
      token: await as('H.admin'),
    });
    expect(lines.slice(1).map((l) => l.split(',').at(-1))).toEqual(page.body.entries.map((e: any) => e.id));
    expect(
      (
        await fetch(`${w.t.baseUrl}/api/credits/ledger/export?organization_id=${id('H')}`, {
          headers: { authorization: `Bearer ${await as('SA1.admin')}` },
        })
      ).status,
    ).toBe(404);
  });

  it('can never be changed or deleted, even by SQL', async () => {
    await expect(sql`update credit_ledger_entries set amount = 1`.execute(w.t.database.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from credit_ledger_entries`.execute(w.t.database.db)).rejects.toThrow(/append-only/);
  });

  it('reconciles: every balance is the sum of its entries', async () => {
    const report = await reconcile(w.t.database.db);
    expect(report).toMatchObject({ ok: true, balance_mismatches: [], unbalanced_groups: [] });
    expect(report.organizations_checked).toBeGreaterThan(5);
  });
});

describe(`concurrent allocations (${concurrency})`, () => {
  it('200 allocations to 10 children from a parent that affords 142: exactly those succeed', async () => {
    const parent = await insertOrg(w.t.database.db, { name: 'Busy Super', type: 'super_agency', parentId: id('H') });
    const children: { id: string }[] = [];
    for (let i = 0; i < 10; i++)
      children.push(await insertOrg(w.t.database.db, { name: `Busy Agency ${i}`, type: 'agency', parentId: parent.id }));
    await allocate('H.admin', { from_org_id: id('H'), to_org_id: parent.id, amount: '0.01' });
    await insertUser(w.t.database.db, {
      email: 'busy@admin.test',
      password: PASSWORD,
      role: 'super_agency_admin',
      organizationId: parent.id,
    });
    await w.t.request(
      'POST',
      '/api/credits/adjustments',
      { direction: 'increase', amount: '999.99', reason: 'Load test' },
      { token: await as('H.admin') },
    );
    await allocate('H.admin', { from_org_id: id('H'), to_org_id: parent.id, amount: '999.99' });
    expect(await balance(parent.id)).toBe('1000.00');
    const before = await total();

    const token = await as('busy@admin.test');
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        w.t.request(
          'POST',
          '/api/credits/allocations',
          { from_org_id: parent.id, to_org_id: children[i % 10]!.id, amount: '7.00' },
          { token },
        ),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(142);
    expect(statuses.filter((s) => s === 422)).toHaveLength(58);
    expect(await balance(parent.id)).toBe('6.00');
    expect(await total()).toBe(before);
    const report = await reconcile(w.t.database.db);
    expect(report.ok).toBe(true);
  }, 120_000);
});

describe('input the database cannot take (issue 8)', () => {
  it('answers 400, not 500, to a NUL in a reason, a cursor beyond bigint and dates beyond year 9999 or before year 1', async () => {
    const token = await w.as('H.admin');
    const adjusted = await w.t.request(
      'POST',
      '/api/credits/adjustments',
      { direction: 'increase', amount: '1.00', reason: 'top\u0000up' },
      { token },
    );
    expect(adjusted.status).toBe(400);
    expect(adjusted.body.error.fields).toEqual({ reason: UNSTORABLE_TEXT });
    for (const query of ['cursor=9999999999999999999', 'to=9999-12-31', 'from=0000-01-01', 'from=0001-01-01T00:00:00%2B01:00']) {
      const response = await w.t.request('GET', `/api/credits/ledger?${query}`, undefined, { token });
      expect(response.status, query).toBe(400);
      expect(response.body.error.code, query).toBe('validation_failed');
    }
  });
});

describe('refunds return what a consumption took, never more', () => {
  it('a refund names an earlier consumption of the same organization and, with the refunds before it, stays within it', async () => {
    const token = await as('H.admin');
    const usage = (body: Record<string, unknown>) => w.t.request('POST', '/api/credits/usage', body, { token });
    const consumed = await usage({ events: [await event(id('A1'), 'bounded-consumption', '5')] });
    expect(consumed.body.results[0].status).toBe('accepted');
    const before = await balance(id('A1'));
    const entriesBefore = await entryCount();

    const refused = await usage({
      refunds: [
        { organization_id: id('A1'), amount: '1.00', external_ref: 'refund-of-unknown', refund_of: 'no-such-consumption' },
        { organization_id: id('A2'), amount: '1.00', external_ref: 'refund-other-org', refund_of: 'bounded-consumption' },
        { organization_id: id('A1'), amount: '1.00', external_ref: 'refund-of-a-refund', refund_of: 'usage-2' },
        { organization_id: id('A1'), amount: '5.01', external_ref: 'refund-too-much', refund_of: 'bounded-consumption' },
        { organization_id: id('A1'), amount: '1.00', external_ref: 'usage-2', refund_of: 'bounded-consumption' },
      ],
    });
    expect(refused.status).toBe(200);
    expect(refused.body.refunds.map((r: any) => [r.status, r.message])).toEqual([
      ['rejected', MESSAGES.credits.refundUnknownConsumption('no-such-consumption')],
      ['rejected', MESSAGES.credits.refundUnknownConsumption('bounded-consumption')],
      ['rejected', MESSAGES.credits.refundUnknownConsumption('usage-2')],
      ['rejected', MESSAGES.credits.refundExceeds('5.00')],
      // An external_ref that already names another entry of the organization's ledger (the refund usage-2).
      ['rejected', MESSAGES.usage.refundIdTaken],
    ]);
    expect(await entryCount()).toBe(entriesBefore);
    expect(await balance(id('A1'))).toBe(before);

    const parts = await usage({
      refunds: [
        { organization_id: id('A1'), amount: '3.00', external_ref: 'refund-part-1', refund_of: 'bounded-consumption', reason: 'Outage' },
        { organization_id: id('A1'), amount: '2.00', external_ref: 'refund-part-2', refund_of: 'bounded-consumption' },
        { organization_id: id('A1'), amount: '0.01', external_ref: 'refund-part-3', refund_of: 'bounded-consumption' },
      ],
    });
    expect(parts.body.refunds.map((r: any) => [r.status, r.message])).toEqual([
      ['recorded', null],
      ['recorded', null],
      ['rejected', MESSAGES.credits.refundExceeds('0.00')],
    ]);
    expect(Number(await balance(id('A1'))) - Number(before)).toBeCloseTo(5, 2);
    const entry = await w.t.database.db
      .selectFrom('credit_ledger_entries')
      .select(['refund_of', 'metadata'])
      .where('external_ref', '=', 'refund-part-1')
      .executeTakeFirstOrThrow();
    expect(entry).toEqual({
      refund_of: 'bounded-consumption',
      metadata: { refund_of: 'bounded-consumption', reason: 'Outage', notes: 'Outage' },
    });
    // A usage event may carry the id a refund's external_ref holds: event ids are not ledger references.
    const clash = await usage({ events: [await event(id('A1'), 'refund-part-2', '1')] });
    expect(clash.body.results[0]).toMatchObject({ status: 'accepted' });
    expect((await reconcile(w.t.database.db)).ok).toBe(true);
  });
});

describe('a balance never goes beyond numeric(16,2)', () => {
  const NEAR_MAX = '99999999999999.00';
  /** A balance near the most an organization can hold, written with its ledger entry so the books still reconcile. */
  async function fillTo(orgId: string, target: string) {
    await sql`
      insert into credit_ledger_entries (organization_id, amount, entry_type, transaction_group, balance_after)
      select organization_id, ${target}::numeric - credit_balance, 'adjustment_increase', gen_random_uuid(), ${target}::numeric
      from organization_billing_settings where organization_id = ${orgId}`.execute(w.t.database.db);
    await sql`update organization_billing_settings set credit_balance = ${target}::numeric where organization_id = ${orgId}`.execute(
      w.t.database.db,
    );
  }

  it('answers 422 with a clear message to an adjustment, an allocation and a refund that would overflow, and writes nothing', async () => {
    const house = await as('H.admin');
    const limit = MESSAGES.credits.balanceLimit('99999999999999.99');
    await fillTo(id('H'), NEAR_MAX);
    const before = await entryCount();
    const adjust = await w.t.request(
      'POST',
      '/api/credits/adjustments',
      { direction: 'increase', amount: '1.00', reason: 'Overflow' },
      { token: house },
    );
    expect(adjust.status).toBe(422);
    expect(adjust.body.error).toMatchObject({ code: 'balance_limit', message: limit });
    // The largest amount an input may carry, to the exact limit: still allowed.
    const exact = await w.t.request(
      'POST',
      '/api/credits/adjustments',
      { direction: 'increase', amount: '0.99', reason: 'To the limit' },
      { token: house },
    );
    expect(exact.status).toBe(200);
    expect(exact.body.entry.balance_after).toBe('99999999999999.99');

    await fillTo(id('SA2'), NEAR_MAX);
    const allocation = await allocate('H.admin', { from_org_id: id('H'), to_org_id: id('SA2'), amount: '1.00' });
    expect(allocation.status).toBe(422);
    expect(allocation.body.error).toMatchObject({ code: 'balance_limit', message: limit });

    const usage = await w.t.request(
      'POST',
      '/api/credits/usage',
      { events: [await event(id('SA2'), 'overflow-consumption', '1')] },
      { token: house },
    );
    expect(usage.body.results[0].status).toBe('accepted');
    await fillTo(id('SA2'), '99999999999999.50');
    const refund = await w.t.request(
      'POST',
      '/api/credits/usage',
      { refunds: [{ organization_id: id('SA2'), amount: '1.00', external_ref: 'overflow-refund', refund_of: 'overflow-consumption' }] },
      { token: house },
    );
    expect(refund.status).toBe(200);
    expect(refund.body.refunds[0]).toMatchObject({ status: 'rejected', message: limit });
    // Written: the adjustment to the exact limit, the two fills and the consumption; nothing refused.
    expect(await entryCount()).toBe(before + 4);
    expect(await balance(id('SA2'))).toBe('99999999999999.50');
    expect((await reconcile(w.t.database.db)).ok).toBe(true);
  });
});

describe('idempotency keys expire after 24 hours', () => {
  it('a retry within the window returns the first answer; after it, the same key is a new request, and old keys are deleted', async () => {
    const body = { from_org_id: id('A1'), to_org_id: id('T1'), amount: '0.50' };
    const user = await w.t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', w.world.users['A1.admin']!)
      .executeTakeFirstOrThrow();
    const first = await allocate('A1.admin', body, 'expiring-key');
    expect(first.status).toBe(200);
    expect((await allocate('A1.admin', body, 'expiring-key')).body).toEqual(first.body);
    // Another user's key from two days ago, never used again.
    const other = await w.t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', w.world.users['H.admin']!)
      .executeTakeFirstOrThrow();
    await w.t.database.db
      .insertInto('idempotency_keys')
      .values({ user_id: other.id, key: 'forgotten', request_hash: 'x', created_at: new Date(Date.now() - 48 * 3_600_000) })
      .execute();
    await w.t.database.db
      .updateTable('idempotency_keys')
      .set({ created_at: new Date(Date.now() - 25 * 3_600_000) })
      .where('user_id', '=', user.id)
      .where('key', '=', 'expiring-key')
      .execute();

    const balanceBefore = await balance(id('T1'));
    const after = await allocate('A1.admin', body, 'expiring-key');
    expect(after.status).toBe(200);
    expect(after.body.transaction_id).not.toBe(first.body.transaction_id);
    expect(Number(await balance(id('T1'))) - Number(balanceBefore)).toBeCloseTo(0.5, 2);
    const keys = await w.t.database.db
      .selectFrom('idempotency_keys')
      .select(['key', 'created_at'])
      .where('key', 'in', ['expiring-key', 'forgotten'])
      .execute();
    expect(keys.map((k) => k.key)).toEqual(['expiring-key']);
    expect(Date.now() - Date.parse(keys[0]!.created_at)).toBeLessThan(3_600_000);
  });
});

describe('reconciliation', () => {
  it('flags a deleted organization that still holds credits, naming it', async () => {
    const ghost = await insertOrg(w.t.database.db, { name: 'Ghost Agency', type: 'agency', parentId: id('SA1') });
    await allocate('SA1.admin', { from_org_id: id('SA1'), to_org_id: ghost.id, amount: '0.25' });
    expect(await balance(ghost.id)).toBe('0.25');
    await w.t.database.db.updateTable('organizations').set({ deleted_at: new Date() }).where('id', '=', ghost.id).execute();
    const report = await reconcile(w.t.database.db);
    expect(report.ok).toBe(false);
    expect(report.deleted_with_balance).toEqual([{ organization_id: ghost.id, name: 'Ghost Agency', credit_balance: '0.25' }]);
    expect(report.balance_mismatches).toEqual([]);
    await w.t.database.db.updateTable('organizations').set({ deleted_at: null }).where('id', '=', ghost.id).execute();
  });
});
