import { describe, expect, inject, it, beforeAll } from 'vitest';
import { sql } from 'kysely';
import { useWorld, type ApiResponse } from '../test/harness.ts';
import { reconcile } from '../modules/credits/reconcile.ts';
import { activate, insertAgentType } from '../test/usage-rows.ts';
import { balanceOf } from '../test/books.ts';

/**
 * Money under concurrent requests, through real HTTP. On PostgreSQL the requests of a
 * round run truly concurrently (a pool of ten connections), so these are the proofs; PGlite
 * runs one statement at a time, so there the same tests only check the arithmetic.
 */
const onPostgres = Boolean(inject('pgServerUrl'));
const w = useWorld();
const db = () => w.t.database.db;

const balance = (orgId: string) => balanceOf(db(), orgId);

const mode = onPostgres ? 'PostgreSQL: truly concurrent' : 'PGlite: serialized, arithmetic only';

beforeAll(async () => {
  // Credits enter at the house and reach A1 through the ledger, so the books reconcile throughout.
  const house = await w.as('H.admin');
  expect(
    (
      await w.t.request(
        'POST',
        '/api/credits/adjustments',
        { direction: 'increase', amount: '10000', reason: 'money races' },
        { token: house },
      )
    ).status,
  ).toBe(200);
  for (const [from, to] of [
    ['H', 'SA1'],
    ['SA1', 'A1'],
  ] as const) {
    const response = await w.t.request(
      'POST',
      '/api/credits/allocations',
      { from_org_id: w.id(from), to_org_id: w.id(to), amount: '5000' },
      { token: await w.as(`${from}.admin`) },
    );
    expect(response.status).toBe(200);
  }
});

describe(`deleting an organization while credits move into it (${mode})`, () => {
  it('never both: the deletion and the allocation sent together never both succeed, never a 5xx, and the books reconcile', async () => {
    const rounds = onPostgres ? 40 : 8;
    const token = await w.as('A1.admin');
    const outcomes = { deleted: 0, allocated: 0, both: 0 };
    const failures: string[] = [];
    for (let round = 0; round < rounds; round++) {
      const created = await w.t.request('POST', '/api/organizations', { name: `Race Tenant ${round}`, org_type: 'tenant' }, { token });
      expect(created.status).toBe(201);
      const tenant: string = created.body.organization.id;
      // Alternate which request leaves first, so both orders are tried.
      const remove = () => w.t.request('DELETE', `/api/organizations/${tenant}`, undefined, { token });
      const allocate = () =>
        w.t.request('POST', '/api/credits/allocations', { from_org_id: w.id('A1'), to_org_id: tenant, amount: '1.00' }, { token });
      let deletion: ApiResponse;
      let allocation: ApiResponse;
      if (round % 2 === 0) [deletion, allocation] = await Promise.all([remove(), allocate()]);
      else [allocation, deletion] = await Promise.all([allocate(), remove()]);

      const label = `round ${round}: DELETE ${deletion.status} ${JSON.stringify(deletion.body)}, allocation ${allocation.status} ${JSON.stringify(allocation.body)}`;
      if (deletion.status >= 500 || allocation.status >= 500) failures.push(`server error in ${label}`);
      if (![204, 422].includes(deletion.status)) failures.push(`unexpected deletion answer in ${label}`);
      if (![200, 404, 422].includes(allocation.status)) failures.push(`unexpected allocation answer in ${label}`);
      const deleted = deletion.status === 204;
      const allocated = allocation.status === 200;
      if (deleted && allocated) outcomes.both++;
      else if (deleted) outcomes.deleted++;
      else if (allocated) outcomes.allocated++;
      // Whatever the order, the tenant is either live with its credits or deleted with none.
      const row = await db().selectFrom('organizations').select('deleted_at').where('id', '=', tenant).executeTakeFirstOrThrow();
      expect(row.deleted_at !== null, label).toBe(deleted);
      expect(await balance(tenant), label).toBe(allocated ? '1.00' : '0.00');
    }
    console.log(
      `delete vs allocate (${mode}): ${rounds} rounds, deleted ${outcomes.deleted}, allocated ${outcomes.allocated}, both ${outcomes.both}`,
    );
    expect(failures).toEqual([]);
    expect(outcomes.both).toBe(0);
    expect(outcomes.deleted + outcomes.allocated).toBe(rounds);
    const report = await reconcile(db());
    expect(report.deleted_with_balance).toEqual([]);
    expect(report.ok).toBe(true);
  }, 180_000);
});

describe(`refunds of one consumption sent together (${mode})`, () => {
  it('never give back more than the consumption took', async () => {
    const house = await w.as('H.admin');
    const agent = await insertAgentType(db(), 'race-agent', '1.0000');
    await activate(db(), w.id('A1'), agent.id);
    const consumed = await w.t.request(
      'POST',
      '/api/credits/usage',
      {
        events: [
          { id: 'race-consumption', organization_id: w.id('A1'), agent: agent.code, units: '10', occurred_at: new Date().toISOString() },
        ],
      },
      { token: house },
    );
    expect(consumed.body.results[0]).toMatchObject({ status: 'accepted', credits_charged: '10.00' });
    const before = await balance(w.id('A1'));

    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        w.t.request(
          'POST',
          '/api/credits/usage',
          { refunds: [{ organization_id: w.id('A1'), amount: '1.00', external_ref: `race-refund-${i}`, refund_of: 'race-consumption' }] },
          { token: house },
        ),
      ),
    );
    expect(responses.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
    const statuses = responses.map((r) => r.body.refunds[0].status);
    expect(statuses.filter((s) => s === 'recorded')).toHaveLength(10);
    expect(statuses.filter((s) => s === 'rejected')).toHaveLength(20);
    expect(Number(await balance(w.id('A1'))) - Number(before)).toBeCloseTo(10, 2);
    const refunded = await sql<{ total: string }>`
      select sum(amount)::text as total from credit_ledger_entries where organization_id = ${w.id('A1')} and refund_of = 'race-consumption'`.execute(
      db(),
    );
    expect(refunded.rows[0]!.total).toBe('10.00');
    expect((await reconcile(db())).ok).toBe(true);
  }, 60_000);
});
