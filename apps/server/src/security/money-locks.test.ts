import { beforeAll, describe, expect, inject, it } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { useWorld, type ApiResponse } from '../test/harness.ts';
import { insertOrg } from '../test/fixtures.ts';
import { reconcile } from '../modules/credits/reconcile.ts';
import { balanceOf } from '../test/books.ts';

/**
 * The balance row locks of money movements (credit_balances_lock, taken by ledger_post for
 * adjustments, allocations and usage), made deterministic: a transaction on a connection of
 * its own holds an organization's balance row while requests pile up behind it, and the test
 * waits until PostgreSQL reports every one of them waiting on a lock before it lets go. So a
 * movement that read its balance before taking the lock, or that does not re-check under the
 * lock what may have changed while it waited, is caught every time, not by luck of timing.
 *
 * PGlite is one connection: nothing can hold a lock while requests arrive. There the first
 * test runs its requests serialized (arithmetic only) and the second does not run.
 */
const onPostgres = Boolean(inject('pgServerUrl'));
const mode = onPostgres ? 'PostgreSQL: requests held behind a lock on another connection' : 'PGlite: serialized, arithmetic only';
const w = useWorld();
const db = () => w.t.database.db;

const describeAnswer = (r: ApiResponse) => `${r.status} ${JSON.stringify(r.body).slice(0, 200)}`;

const balance = (orgId: string) => balanceOf(db(), orgId);

/** The sum of an organization's ledger entries, and its last balance_after. */
async function books(orgId: string) {
  const { rows } = await sql<{ total: string; last: string | null }>`
    select coalesce(sum(amount), 0)::numeric(16, 2)::text as total,
           (select balance_after::text from credit_ledger_entries where organization_id = ${orgId} order by seq desc limit 1) as last
    from credit_ledger_entries where organization_id = ${orgId}`.execute(db());
  return rows[0]!;
}

/**
 * Holds the balance row of `orgId` (select ... for update, on a connection outside the app's
 * pool) while `requests` are sent, waits until `waiting` sessions of the database are blocked
 * on a lock, runs `meanwhile`, then rolls back and answers the responses. On PGlite the
 * requests simply run one after another, and `meanwhile` after them.
 */
async function behindLock(
  orgId: string,
  requests: (() => Promise<ApiResponse>)[],
  meanwhile: () => Promise<void> = async () => {},
): Promise<ApiResponse[]> {
  if (!w.t.databaseUrl) {
    const answers: ApiResponse[] = [];
    for (const request of requests) answers.push(await request());
    await meanwhile();
    return answers;
  }
  const holder = new pg.Client({ connectionString: w.t.databaseUrl });
  await holder.connect();
  let pending: Promise<ApiResponse>[] = [];
  try {
    await holder.query('begin');
    await holder.query('select 1 from organization_billing_settings where organization_id = $1 for update', [orgId]);
    pending = requests.map((request) => request());
    // Every request is blocked on a balance row (this one, or one a blocked request took
    // first). pg_stat_activity is read once per transaction unless its snapshot is cleared.
    for (let polls = 0; ; polls++) {
      await holder.query('select pg_stat_clear_snapshot()');
      const { rows } = await holder.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
         where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
      );
      if (rows[0]!.n >= requests.length) break;
      if (polls >= 1000) throw new Error(`only ${rows[0]!.n} of ${requests.length} requests came to wait on the lock`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await meanwhile();
    await holder.query('rollback');
    return await Promise.all(pending);
  } finally {
    await holder.end();
    await Promise.allSettled(pending);
  }
}

beforeAll(async () => {
  const house = await w.as('H.admin');
  const adjusted = await w.t.request(
    'POST',
    '/api/credits/adjustments',
    { direction: 'increase', amount: '1000', reason: 'money locks' },
    { token: house },
  );
  expect(adjusted.status, describeAnswer(adjusted)).toBe(200);
  for (const [from, to, amount] of [
    ['H', 'SA1', '300'],
    ['SA1', 'A1', '200'],
  ] as const) {
    const response = await w.t.request(
      'POST',
      '/api/credits/allocations',
      { from_org_id: w.id(from), to_org_id: w.id(to), amount },
      { token: await w.as(`${from}.admin`) },
    );
    expect(response.status, describeAnswer(response)).toBe(200);
  }
});

describe(`adjustments and allocations on one organization, all waiting on its balance row (${mode})`, () => {
  it('no lost update: the balance is the expected figure, the sum of its ledger entries and its last balance_after; the books reconcile', async () => {
    const house = await w.as('H.admin');
    const before = Number(await balance(w.id('H')));
    const adjust = (direction: 'increase' | 'decrease', amount: string) => () =>
      w.t.request('POST', '/api/credits/adjustments', { direction, amount, reason: 'held adjustment' }, { token: house });
    const allocate = (amount: string) => () =>
      w.t.request('POST', '/api/credits/allocations', { from_org_id: w.id('H'), to_org_id: w.id('SA2'), amount }, { token: house });
    const requests = [
      adjust('increase', '10.00'),
      adjust('decrease', '3.00'),
      allocate('5.00'),
      adjust('increase', '10.00'),
      adjust('decrease', '3.00'),
      allocate('5.00'),
      adjust('increase', '10.00'),
      adjust('increase', '10.00'),
    ];
    const answers = await behindLock(w.id('H'), requests);
    expect(answers.filter((r) => r.status !== 200).map(describeAnswer)).toEqual([]);

    // 4 × 10.00 in, 2 × 3.00 out, 2 × 5.00 to SA2.
    const expected = (before + 40 - 6 - 10).toFixed(2);
    expect(await balance(w.id('H'))).toBe(expected);
    expect(await books(w.id('H'))).toEqual({ total: expected, last: expected });
    expect(await balance(w.id('SA2'))).toBe('10.00');
    expect(await books(w.id('SA2'))).toEqual({ total: '10.00', last: '10.00' });
    expect(await reconcile(db())).toMatchObject({ ok: true });
  }, 60_000);
});

describe.runIf(onPostgres)(`allocations into a child suspended while they wait for its balance row (${mode})`, () => {
  it('none lands: each re-checks under the lock that the child is still active and is refused; nothing moves and the books reconcile', async () => {
    const token = await w.as('A1.admin');
    const child = await insertOrg(db(), { name: 'Suspended While Waiting', type: 'tenant', parentId: w.id('A1') });
    const parentBefore = await balance(w.id('A1'));
    const allocate = () =>
      w.t.request('POST', '/api/credits/allocations', { from_org_id: w.id('A1'), to_org_id: child.id, amount: '1.00' }, { token });

    // The allocations pass the unlocked check (the child is active) and wait for the child's
    // row; the suspension commits while they wait.
    const answers = await behindLock(
      child.id,
      Array.from({ length: 6 }, () => allocate),
      async () => {
        const suspended = await w.t.request('PATCH', `/api/organizations/${child.id}`, { status: 'suspended' }, { token });
        expect(suspended.status, describeAnswer(suspended)).toBe(200);
      },
    );

    expect(answers.map((r) => [r.status, r.body?.error?.code])).toEqual(Array.from({ length: 6 }, () => [422, 'organization_not_active']));
    expect(await balance(child.id)).toBe('0.00');
    expect(await books(child.id)).toEqual({ total: '0.00', last: null });
    expect(await balance(w.id('A1'))).toBe(parentBefore);
    const audits = await db()
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'credits.allocate')
      .where('target_id', '=', child.id)
      .execute();
    expect(audits).toEqual([]);
    expect(await reconcile(db())).toMatchObject({ ok: true });
  }, 60_000);
});
