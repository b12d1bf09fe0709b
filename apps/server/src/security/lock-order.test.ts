import { beforeAll, describe, expect, inject, it } from 'vitest';
import { useWorld, type ApiResponse } from '../test/harness.ts';
import { reconcile } from '../modules/credits/reconcile.ts';
import { insertOrg } from '../test/fixtures.ts';
import { balanceOf } from '../test/books.ts';

/**
 * Lock order between kinds of request that lock the same two balance rows: an allocation
 * from a parent P to its child C (which locks P's and C's rows), and either a change of C's
 * activated agent limit (which locks C's and P's rows) or a reversal of an earlier allocation
 * P → C (which gives C's credits back to P). Each must take them in id order; were one to take
 * them in another order, it and an allocation would wait on each other in a cycle whenever C's
 * id sorts before P's (or after, for the other), and PostgreSQL would roll one back as a
 * deadlock (40P01, answered 409). So the pairs here cover both id orders.
 *
 * On PostgreSQL the requests of a round run truly concurrently (a pool of ten connections),
 * so this is the proof; PGlite runs one statement at a time, so there the same test only
 * checks the arithmetic.
 */
const onPostgres = Boolean(inject('pgServerUrl'));
const mode = onPostgres
  ? 'PostgreSQL: truly concurrent, proves the lock order'
  : 'PGlite: serialized, arithmetic only, proves no lock order';
const w = useWorld();
const db = () => w.t.database.db;

const describeAnswer = (r: ApiResponse) => `${r.status} ${JSON.stringify(r.body).slice(0, 200)}`;

const balance = async (orgId: string) => Number(await balanceOf(db(), orgId));

/** Parent → child pairs, at least two whose child's id sorts before the parent's and two after. */
const pairs: { parent: 'A1'; child: string; childFirst: boolean }[] = [];

beforeAll(async () => {
  const house = await w.as('H.admin');
  const post = async (who: string, path: string, body: unknown, method = 'POST') => {
    const response = await w.t.request(method, path, body, { token: await w.as(who) });
    expect(response.status, describeAnswer(response)).toBeLessThan(300);
    return response.body;
  };
  await post('H.admin', '/api/credits/adjustments', { direction: 'increase', amount: '100000', reason: 'lock order' });
  await post('H.admin', '/api/credits/allocations', { from_org_id: w.id('H'), to_org_id: w.id('SA1'), amount: '50000' });
  await post('SA1.admin', '/api/credits/allocations', { from_org_id: w.id('SA1'), to_org_id: w.id('A1'), amount: '20000' });
  // Agent capacity down to A1, so A1's admins can set its children's limits.
  await w.t.request('PUT', `/api/organizations/${w.id('H')}/agent-limit`, { activated_agent_limit: 1000 }, { token: house });
  await post('H.admin', `/api/organizations/${w.id('SA1')}/agent-limit`, { activated_agent_limit: 500 }, 'PUT');
  await post('SA1.admin', `/api/organizations/${w.id('A1')}/agent-limit`, { activated_agent_limit: 100 }, 'PUT');
  // The children take ids right beside A1's, two just below and two just above, so both id
  // orders are there whatever id A1 drew (random ids alone can all fall on one side).
  const parent = w.id('A1');
  for (const delta of [-2n, -1n, 1n, 2n]) {
    const child = uuidBeside(parent, delta);
    await insertOrg(db(), { id: child, name: `Lock Child ${delta}`, type: 'tenant', parentId: parent });
    pairs.push({ parent: 'A1', child, childFirst: delta < 0n });
  }
  expect(pairs.map((p) => p.child < parent)).toEqual([true, true, false, false]);
});

/** The uuid `delta` away from `id`, read as a 128-bit number. */
function uuidBeside(id: string, delta: bigint): string {
  const hex = (BigInt(`0x${id.replaceAll('-', '')}`) + delta).toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

describe(`allocations P → C and limit changes on C sent together (${mode})`, () => {
  it('never a 5xx, never a deadlock (409), every allocation lands, and the books reconcile; child ids before and after the parent', async () => {
    const token = await w.as('A1.admin');
    const rounds = onPostgres ? 12 : 2;
    const failures: string[] = [];
    const tally = { allocations: 0, limits: 0 };
    const expected = new Map(pairs.map((p) => [p.child, 0]));
    for (let round = 0; round < rounds; round++) {
      const calls: (() => Promise<ApiResponse>)[] = [];
      for (const { child } of pairs) {
        for (let i = 0; i < 4; i++) {
          const allocate = () =>
            w.t.request('POST', '/api/credits/allocations', { from_org_id: w.id('A1'), to_org_id: child, amount: '1.00' }, { token });
          // Each child's limit stays within A1's capacity of 100 whatever the others hold.
          const limit = () =>
            w.t.request('PUT', `/api/organizations/${child}/agent-limit`, { activated_agent_limit: (round + i) % 20 }, { token });
          // Alternate which kind leaves first, so both orders meet.
          calls.push(...((round + i) % 2 ? [allocate, limit] : [limit, allocate]));
        }
      }
      const answers = await Promise.all(calls.map((call) => call()));
      for (const r of answers) {
        if (r.status === 200 && r.body?.transaction_id) tally.allocations++;
        else if (r.status === 200) tally.limits++;
        else failures.push(`round ${round}: ${describeAnswer(r)}`);
      }
      for (const { child } of pairs) expected.set(child, expected.get(child)! + 4);
    }
    console.log(
      `allocations vs limit changes (${mode}): ${rounds} rounds, ${tally.allocations} allocations, ${tally.limits} limit changes`,
    );
    expect(failures).toEqual([]);
    expect(tally).toEqual({ allocations: rounds * pairs.length * 4, limits: rounds * pairs.length * 4 });
    for (const { child } of pairs) expect(await balance(child)).toBe(expected.get(child));
    expect(await balance(w.id('A1'))).toBe(20000 - rounds * pairs.length * 4);
    expect(await reconcile(db())).toMatchObject({ ok: true });
  }, 240_000);
});

describe(`reversals C → P racing allocations P → C and P → its other children (${mode})`, () => {
  it('never a 5xx, never a deadlock (409): every reversal and allocation lands, and the books reconcile; child ids before and after the parent', async () => {
    const token = await w.as('A1.admin');
    const rounds = onPostgres ? 12 : 2;
    const perChild = 2;
    const allocate = (child: string) =>
      w.t.request('POST', '/api/credits/allocations', { from_org_id: w.id('A1'), to_org_id: child, amount: '1.00' }, { token });
    // Each round's allocations to reverse are made first, one at a time.
    const toReverse: string[][][] = [];
    for (let round = 0; round < rounds; round++) {
      const byChild: string[][] = [];
      for (const { child } of pairs) {
        const made: string[] = [];
        for (let i = 0; i < perChild; i++) {
          const response = await allocate(child);
          expect(response.status, describeAnswer(response)).toBe(200);
          made.push(response.body.transaction_id);
        }
        byChild.push(made);
      }
      toReverse.push(byChild);
    }
    const before = new Map(await Promise.all(pairs.map(async (p) => [p.child, await balance(p.child)] as const)));
    const parentBefore = await balance(w.id('A1'));

    const failures: string[] = [];
    const tally = { reversals: 0, allocations: 0 };
    for (let round = 0; round < rounds; round++) {
      const calls: { kind: keyof typeof tally; what: string; call: () => Promise<ApiResponse> }[] = [];
      for (const [c, { child, childFirst }] of pairs.entries()) {
        const side = `child ${c} (id ${childFirst ? 'before' : 'after'} the parent's)`;
        for (const [i, transaction] of toReverse[round]![c]!.entries()) {
          const reverse = {
            kind: 'reversals' as const,
            what: `reversal from ${side}`,
            call: () => w.t.request('POST', `/api/credits/allocations/${transaction}/reversal`, { reason: 'Lock order race' }, { token }),
          };
          const allocation = { kind: 'allocations' as const, what: `allocation to ${side}`, call: () => allocate(child) };
          // Alternate which kind leaves first, so both orders meet.
          calls.push(...((round + i) % 2 ? [reverse, allocation] : [allocation, reverse]));
        }
      }
      const answers = await Promise.all(calls.map(({ call }) => call()));
      for (const [n, r] of answers.entries()) {
        if (r.status === 200) tally[calls[n]!.kind]++;
        else failures.push(`round ${round}, ${calls[n]!.what}: ${describeAnswer(r)}`);
      }
    }
    console.log(`reversals vs allocations (${mode}): ${rounds} rounds, ${tally.reversals} reversals, ${tally.allocations} allocations`);
    expect(failures).toEqual([]);
    const each = rounds * pairs.length * perChild;
    expect(tally).toEqual({ reversals: each, allocations: each });
    // Every child got back to where it stood: each round gave it as much as it returned.
    for (const { child } of pairs) expect(await balance(child)).toBe(before.get(child));
    expect(await balance(w.id('A1'))).toBe(parentBefore);
    expect(await reconcile(db())).toMatchObject({ ok: true });
  }, 240_000);
});
