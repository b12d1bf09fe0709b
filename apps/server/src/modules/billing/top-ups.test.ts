import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { useWorld } from '../../test/harness.ts';
import { insertOrg } from '../../test/fixtures.ts';
import { activate, balanceOf, fund, insertAgentType, insertApiKey } from '../../test/usage-rows.ts';
import { reconcile } from '../credits/reconcile.ts';
import { runTopUpsNow } from '../../test/top-up-run.ts';

/**
 * When an automatic top-up is due, and what a child cannot make its parent pay: each test has
 * a parent and a child of its own (rows written straight, the top-up set in SQL: its route has
 * its own tests in spend-caps.test.ts), one agent at 1.0000 a unit, and the app's runner kept
 * away so that each test makes the top-ups it expects.
 */
const w = useWorld({ topUpPollMs: 3_600_000 });
const db = () => w.t.database.db;

let agent: { id: string; code: string };
let n = 0;

interface Family {
  parent: string;
  child: string;
  key: string;
}

/** An agency under Super One holding `parentHas`, with a tenant holding `childHas` and an API key of the agency. */
async function family(parentHas: string, childHas: string): Promise<Family> {
  n += 1;
  const parent = await insertOrg(db(), { name: `Seller ${n}`, type: 'agency', parentId: w.id('SA1') });
  const child = await insertOrg(db(), { name: `Buyer ${n}`, type: 'tenant', parentId: parent.id });
  await activate(db(), child.id, agent.id);
  if (Number(parentHas) > 0) await fund(db(), parent.id, parentHas);
  if (Number(childHas) > 0) await fund(db(), child.id, childHas);
  const { key } = await insertApiKey(db(), parent.id, { name: `runtime ${n}` });
  return { parent: parent.id, child: child.id, key };
}

async function setTopUp(child: string, below: string, amount: string, monthlyMax: string) {
  await sql`update organization_billing_settings set top_up_below = ${below}, top_up_amount = ${amount}, top_up_monthly_max = ${monthlyMax}
            where organization_id = ${child}`.execute(db());
}

/** One event of `units` for the child: its outcome and reason. */
async function use(f: Family, units: string) {
  const response = await w.t.request(
    'POST',
    '/api/v1/usage-events',
    { events: [{ id: `top-up-${++n}`, organization_id: f.child, agent: agent.code, units, occurred_at: new Date().toISOString() }] },
    { headers: { authorization: `Bearer ${f.key}` } },
  );
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { status: response.body.results[0].status as string, reason: response.body.results[0].reason as string | null };
}

const runTopUps = () => runTopUpsNow(db(), w.t.app.log);
const requests = (org: string) =>
  db()
    .selectFrom('top_up_requests')
    .select(['reason', 'outcome', 'balance', 'refused'])
    .where('organization_id', '=', org)
    .orderBy('id')
    .execute();
const failedAlerts = (parent: string) =>
  db().selectFrom('balance_alerts').select(['detail']).where('organization_id', '=', parent).where('kind', '=', 'top_up_failed').execute();
const automaticAllocations = (child: string) =>
  db()
    .selectFrom('credit_ledger_entries')
    .select('amount')
    .where('organization_id', '=', child)
    .where('entry_type', '=', 'allocation_received')
    .where(sql<boolean>`metadata->>'automatic' = 'true'`)
    .execute();

beforeAll(async () => {
  agent = await insertAgentType(db(), 'top-up-bot', '1.0000');
});

describe('a refusal for want of credits', () => {
  it('that no top-up could cover, above the line, moves nothing: six events of 999,999 units leave child and parent as they were', async () => {
    const f = await family('1000.00', '50.00');
    await setTopUp(f.child, '20.00', '100.00', '100.00');
    for (let round = 0; round < 6; round++) {
      expect(await use(f, '999999')).toEqual({ status: 'rejected', reason: 'insufficient_credits' });
      await runTopUps();
    }
    expect(await balanceOf(db(), f.child)).toBe('50.00');
    expect(await balanceOf(db(), f.parent)).toBe('1000.00');
    expect(await automaticAllocations(f.child)).toEqual([]);
    expect(await requests(f.child)).toEqual([]);
  });

  it('that one top-up covers, above the line, is topped up once, keeping what it was for; the events then go through', async () => {
    const f = await family('1000.00', '50.00');
    await setTopUp(f.child, '20.00', '100.00', '500.00');
    expect(await use(f, '120')).toEqual({ status: 'rejected', reason: 'insufficient_credits' });
    await runTopUps();
    expect(await balanceOf(db(), f.child)).toBe('150.00');
    expect(await requests(f.child)).toEqual([{ reason: 'refused', outcome: 'topped_up', balance: '50.00', refused: '120.00' }]);
    expect(await use(f, '120')).toEqual({ status: 'accepted', reason: null });
    expect(await balanceOf(db(), f.child)).toBe('30.00');
    // 30.00 + 100.00 is exactly the 130.00 refused: covered, topped up.
    expect(await use(f, '130')).toEqual({ status: 'rejected', reason: 'insufficient_credits' });
    await runTopUps();
    expect(await balanceOf(db(), f.child)).toBe('130.00');
    expect((await reconcile(db())).ok).toBe(true);
  });

  it('below the line is topped up whether or not one top-up covers it', async () => {
    const f = await family('1000.00', '30.00');
    await setTopUp(f.child, '20.00', '4.00', '500.00');
    // 30.00 - 15.00 crosses the line: the crossing's top-up brings it to 19.00, still below.
    expect(await use(f, '15')).toEqual({ status: 'accepted', reason: null });
    await runTopUps();
    expect(await balanceOf(db(), f.child)).toBe('19.00');
    expect(await use(f, '1000')).toEqual({ status: 'rejected', reason: 'insufficient_credits' });
    await runTopUps();
    expect(await balanceOf(db(), f.child)).toBe('23.00');
    expect((await requests(f.child)).map((r) => [r.reason, r.outcome])).toEqual([
      ['crossed', 'topped_up'],
      ['refused', 'topped_up'],
    ]);
  });

  it('is re-judged by the runner under the locks: a refusal since covered by hand needs no top-up', async () => {
    const f = await family('1000.00', '50.00');
    await setTopUp(f.child, '20.00', '100.00', '500.00');
    expect(await use(f, '120')).toEqual({ status: 'rejected', reason: 'insufficient_credits' });
    await fund(db(), f.child, '100.00');
    await runTopUps();
    expect(await balanceOf(db(), f.child)).toBe('150.00');
    expect((await requests(f.child)).map((r) => r.outcome)).toEqual(['not_needed']);
  });
});

describe('a refused top-up', () => {
  it('past the monthly maximum alerts the parent once, and refused usage queues nothing more until the maximum leaves room', async () => {
    const f = await family('1000.00', '50.00');
    await setTopUp(f.child, '20.00', '60.00', '100.00');
    expect((await use(f, '100')).reason).toBe('insufficient_credits');
    await runTopUps();
    expect(await balanceOf(db(), f.child)).toBe('110.00');
    // Down to 10.00 crosses the line: 60.00 more would make 120.00 this month, past 100.00.
    expect((await use(f, '100')).status).toBe('accepted');
    await runTopUps();
    expect((await requests(f.child)).map((r) => r.outcome)).toEqual(['topped_up', 'monthly_max']);
    for (let round = 0; round < 5; round++) {
      expect((await use(f, '50')).reason).toBe('insufficient_credits');
      await runTopUps();
    }
    expect(await requests(f.child)).toHaveLength(2);
    expect((await failedAlerts(f.parent)).map((a) => (a.detail as { reason: string }).reason)).toEqual(['monthly_max']);
    // The parent raises the maximum: the next refusal is topped up.
    await setTopUp(f.child, '20.00', '60.00', '200.00');
    expect((await use(f, '50')).reason).toBe('insufficient_credits');
    await runTopUps();
    expect(await balanceOf(db(), f.child)).toBe('70.00');
  });

  it("for want of the parent's funds alerts the parent at most once an hour per child and reason, and refused usage waits for the funds", async () => {
    const f = await family('5.00', '10.00');
    await setTopUp(f.child, '20.00', '30.00', '1000.00');
    expect((await use(f, '50')).reason).toBe('insufficient_credits');
    await runTopUps();
    expect((await requests(f.child)).map((r) => r.outcome)).toEqual(['parent_short']);
    for (let round = 0; round < 5; round++) {
      expect((await use(f, '50')).reason).toBe('insufficient_credits');
      await runTopUps();
    }
    expect(await requests(f.child)).toHaveLength(1);
    // A request of another cause within the hour is refused for the same reason without a second alert.
    await sql`insert into top_up_requests (organization_id, reason, balance) values (${f.child}, 'crossed', '10.00')`.execute(db());
    await runTopUps();
    expect((await requests(f.child)).map((r) => r.outcome)).toEqual(['parent_short', 'parent_short']);
    expect((await failedAlerts(f.parent)).map((a) => (a.detail as { reason: string }).reason)).toEqual(['parent_short']);
    // Funded, the parent tops the child up at the next refusal.
    await fund(db(), f.parent, '100.00');
    expect((await use(f, '50')).reason).toBe('insufficient_credits');
    await runTopUps();
    expect(await balanceOf(db(), f.child)).toBe('40.00');
    expect((await reconcile(db())).ok).toBe(true);
  });
});

describe('the runner re-checks under the locks', () => {
  it('a suspended child gets no top-up, and its request ends so that later ones are made', async () => {
    const f = await family('1000.00', '30.00');
    await setTopUp(f.child, '20.00', '10.00', '500.00');
    await db().updateTable('organizations').set({ status: 'suspended' }).where('id', '=', f.child).execute();
    await sql`select 1 from ledger_post(gen_random_uuid(), null, false, array[${f.child}]::uuid[], array['-15.00']::numeric[],
      array['adjustment_decrease'], array['{"reason":"test drain"}'::jsonb])`.execute(db());
    await runTopUps();
    expect(await balanceOf(db(), f.child)).toBe('15.00');
    expect((await requests(f.child)).map((r) => [r.reason, r.outcome])).toEqual([['crossed', 'not_active']]);
    await db().updateTable('organizations').set({ status: 'active' }).where('id', '=', f.child).execute();
    await fund(db(), f.child, '10.00');
    expect((await use(f, '10')).status).toBe('accepted');
    await runTopUps();
    expect(await balanceOf(db(), f.child)).toBe('25.00');
    expect((await requests(f.child)).map((r) => r.outcome)).toEqual(['not_active', 'topped_up']);
  });

  it('under a suspended organization above the parent no credits move inside the frozen subtree', async () => {
    const f = await family('1000.00', '30.00');
    await setTopUp(f.child, '20.00', '10.00', '500.00');
    const superAgency = w.id('SA1');
    await db().updateTable('organizations').set({ status: 'suspended' }).where('id', '=', superAgency).execute();
    try {
      await sql`select 1 from ledger_post(gen_random_uuid(), null, false, array[${f.child}]::uuid[], array['-15.00']::numeric[],
        array['adjustment_decrease'], array['{"reason":"test drain"}'::jsonb])`.execute(db());
      await runTopUps();
    } finally {
      await db().updateTable('organizations').set({ status: 'active' }).where('id', '=', superAgency).execute();
    }
    expect(await balanceOf(db(), f.child)).toBe('15.00');
    expect(await balanceOf(db(), f.parent)).toBe('1000.00');
    expect((await requests(f.child)).map((r) => r.outcome)).toEqual(['not_active']);
  });

  it('a parent holding exactly the amount tops the child up', async () => {
    const f = await family('10.00', '30.00');
    await setTopUp(f.child, '20.00', '10.00', '500.00');
    expect((await use(f, '15')).status).toBe('accepted');
    await runTopUps();
    expect(await balanceOf(db(), f.child)).toBe('25.00');
    expect(await balanceOf(db(), f.parent)).toBe('0.00');
  });

  it('a crossing queues one request: more usage below the line queues none', async () => {
    const f = await family('0.00', '30.00');
    await setTopUp(f.child, '20.00', '10.00', '500.00');
    expect((await use(f, '15')).status).toBe('accepted');
    await runTopUps();
    for (let round = 0; round < 3; round++) expect((await use(f, '1')).status).toBe('accepted');
    await runTopUps();
    expect((await requests(f.child)).map((r) => [r.reason, r.outcome, r.balance])).toEqual([['crossed', 'parent_short', '15.00']]);
  });
});
