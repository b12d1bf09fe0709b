import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { useWorld } from '../../test/harness.ts';
import { activate, fund, insertAgentType, insertApiKey } from '../../test/usage-rows.ts';

/**
 * Issue 46: a child stopped by its spend cap, as its parent sees it: `cap_standing` (reached
 * now, events refused this month) on the organization list and its "Cap reached" filter, the
 * dashboard's children needing attention, and the spend controls.
 */
const w = useWorld({ topUpPollMs: 3_600_000 });
const db = () => w.t.database.db;

let agent: { id: string; code: string };
let key: { id: string; key: string };
let n = 0;
// One unit is one credit.
const use = (org: string, id = `standing-${++n}`) => ({
  id,
  organization_id: org,
  agent: agent.code,
  units: '1',
  occurred_at: new Date().toISOString(),
});
const report = async (events: unknown[]) => {
  const response = await w.t.request('POST', '/api/v1/usage-events', { events }, { headers: { authorization: `Bearer ${key.key}` } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.results.map((r: { status: string; reason?: string }) => r.reason ?? r.status);
};
const as = async (who: string, method: string, path: string, body?: unknown) => w.t.request(method, path, body, { token: await w.as(who) });
const setCap = async (spend_cap: string | null) => {
  const response = await as('SA1.admin', 'PUT', `/api/organizations/${w.id('A1')}/spend-controls`, { spend_cap, top_up: null });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
};
const listed = async (query = '') => {
  const response = await as('SA1.admin', 'GET', `/api/organizations?page_size=100${query}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
};
const standingOf = async (org: 'A1' | 'A2') => (await listed()).organizations.find((o: { id: string }) => o.id === w.id(org)).cap_standing;
const controls = async () => (await as('SA1.admin', 'GET', `/api/organizations/${w.id('A1')}/spend-controls`)).body;

beforeAll(async () => {
  agent = await insertAgentType(db(), 'standing', '1.0000');
  for (const org of ['A1', 'T1'] as const) {
    await activate(db(), w.id(org), agent.id);
    await fund(db(), w.id(org), '100.00');
  }
  key = await insertApiKey(db(), w.id('A1'), { name: 'standing runtime' });
});

describe('a child stopped by its spend cap (issue 46)', () => {
  it('is told on its parent’s list, filter, dashboard and spend controls, with the events refused this month', async () => {
    expect(await standingOf('A1')).toEqual({ reached: false, refused_this_month: 0 });
    await setCap('3.00');
    // A grandchild's events count against A1's cap over its subtree: the refusals are A1's.
    expect(await report([use(w.id('T1')), use(w.id('T1')), use(w.id('T1')), use(w.id('T1')), use(w.id('T1'))])).toEqual([
      'accepted',
      'accepted',
      'accepted',
      'spend_cap_reached',
      'spend_cap_reached',
    ]);
    expect(await standingOf('A1')).toEqual({ reached: true, refused_this_month: 2 });
    expect(await standingOf('A2')).toEqual({ reached: false, refused_this_month: 0 });
    const mine = await as('A1.admin', 'GET', '/api/organizations');
    expect(mine.body.organizations.find((o: { id: string }) => o.id === w.id('T1')).cap_standing).toEqual({
      reached: false,
      refused_this_month: 0,
    });

    // The Show filter: the server keeps only the children a cap stops.
    const capped = await listed('&attention=cap_reached');
    expect(capped.organizations.map((o: { name: string }) => o.name)).toEqual(['Agency One']);
    expect(capped.total).toBe(1);
    const below = await listed('&view=descendants&attention=cap_reached');
    expect(below.organizations.map((o: { id: string }) => o.id)).toEqual([w.id('A1')]);

    // The dashboard's children needing attention: A1 holds more than its threshold, yet is listed for its cap.
    const dashboard = await as('SA1.admin', 'GET', '/api/dashboard');
    const attention = dashboard.body.credits.children_needing_attention;
    expect(attention.children.find((c: { id: string }) => c.id === w.id('A1'))).toMatchObject({
      name: 'Agency One',
      low_balance: false,
      cap_standing: { reached: true, refused_this_month: 2 },
    });
    expect(
      attention.children.filter(
        (c: { low_balance: boolean; cap_standing: { reached: boolean } }) => !c.low_balance && !c.cap_standing.reached,
      ),
    ).toEqual([]);

    // The billing card's figures.
    expect(await controls()).toMatchObject({
      spend_cap: { cap: '3.00', charged: '3.00' },
      cap_standing: { reached: true, refused_this_month: 2 },
    });

    // An event sent again and refused again counts again (refused events are not stored).
    const again = use(w.id('T1'));
    expect(await report([again])).toEqual(['spend_cap_reached']);
    expect(await report([again])).toEqual(['spend_cap_reached']);
    expect((await controls()).cap_standing).toEqual({ reached: true, refused_this_month: 4 });
  });

  it('is reached once an event was refused at the cap with cents of it left; a raised cap frees it and the month keeps its count', async () => {
    // 3.00 charged of 3.50: the next 1.00 would pass it.
    await setCap('3.50');
    expect((await controls()).cap_standing).toEqual({ reached: false, refused_this_month: 4 });
    expect(await report([use(w.id('T1'))])).toEqual(['spend_cap_reached']);
    expect((await controls()).cap_standing).toEqual({ reached: true, refused_this_month: 5 });
    await setCap('10.00');
    expect((await controls()).cap_standing).toEqual({ reached: false, refused_this_month: 5 });
    expect((await listed('&attention=cap_reached')).organizations).toEqual([]);
    const dashboard = await as('SA1.admin', 'GET', '/api/dashboard');
    expect(dashboard.body.credits.children_needing_attention.children.map((c: { id: string }) => c.id)).not.toContain(w.id('A1'));
  });

  it('is reached at once by a cap set below what the month has charged, which the server accepts', async () => {
    const saved = await setCap('2.00');
    expect(saved).toMatchObject({ spend_cap: { cap: '2.00', charged: '3.00' }, cap_standing: { reached: true, refused_this_month: 5 } });
    expect(await report([use(w.id('A1'))])).toEqual(['spend_cap_reached']);
    expect((await standingOf('A1')).refused_this_month).toBe(6);
  });

  it('counts by the month of occurrence: the months before are not this month’s', async () => {
    const lastMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
    await sql`insert into spend_cap_refusals (organization_id, month, refused) values (${w.id('A1')}, ${lastMonth}, 40)`.execute(db());
    expect((await standingOf('A1')).refused_this_month).toBe(6);
    const rows = await sql<{ month: string; refused: string }>`
      select to_char(month, 'YYYY-MM-DD') as month, refused::text from spend_cap_refusals where organization_id = ${w.id('A1')} order by month`.execute(
      db(),
    );
    expect(rows.rows.map((r) => r.refused)).toEqual(['40', '6']);
  });
});
