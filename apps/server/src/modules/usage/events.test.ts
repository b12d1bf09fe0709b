import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { useWorld } from '../../test/harness.ts';
import { insertOrg } from '../../test/fixtures.ts';
import { activate, ago, fund, insertAgentType, insertApiKey } from '../../test/usage-rows.ts';

const w = useWorld();
const db = () => w.t.database.db;

let writer: { key: string };
let reader: { key: string };
let writeOnly: { key: string };
let gone: { id: string };
const agents: Record<string, { id: string }> = {};
/** The 30 events of T1, newest occurrence first: bot e0..e19 a minute apart, then cheap c0..c9. */
let expected: string[];

const minutesAgo = (n: number) => ago(n * 60_000).toISOString();
const machine = (query: string, key = reader.key) =>
  w.t.request('GET', `/api/v1/usage-events?${query}`, undefined, { headers: { authorization: `Bearer ${key}` } });
const consoleList = async (who: string, query: string) =>
  w.t.request('GET', `/api/usage-events?${query}`, undefined, { token: await w.as(who) });

beforeAll(async () => {
  const d = db();
  agents.bot = await insertAgentType(d, 'bot', '0.2500');
  agents.cheap = await insertAgentType(d, 'cheap', '0.0007');
  const T1 = w.id('T1');
  for (const agent of ['bot', 'cheap']) await activate(d, T1, agents[agent]!.id);
  await fund(d, T1, '100.00');
  gone = await insertOrg(d, { name: 'Gone Tenant', type: 'tenant', parentId: w.id('A1') });
  writer = await insertApiKey(d, w.id('A1'), { scopes: ['usage:write'] });
  reader = await insertApiKey(d, w.id('A1'), { scopes: ['usage:read'] });
  writeOnly = writer;
  const events = [
    ...Array.from({ length: 20 }, (_, i) => ({ id: `e${i}`, agent: 'bot', units: '2', occurred_at: minutesAgo(100 - i) })),
    ...Array.from({ length: 10 }, (_, i) => ({ id: `c${i}`, agent: 'cheap', units: '3', occurred_at: minutesAgo(200 - i) })),
  ].map((event) => ({ ...event, organization_id: T1, metadata: { run: event.id } }));
  const recorded = await w.t.request('POST', '/api/v1/usage-events', { events }, { headers: { authorization: `Bearer ${writer.key}` } });
  expect(recorded.body.accepted).toBe(30);
  expected = [...Array.from({ length: 20 }, (_, i) => `e${19 - i}`), ...Array.from({ length: 10 }, (_, i) => `c${9 - i}`)];
  await sql`update organizations set deleted_at = now() where id = ${gone.id}`.execute(d);
});

describe('GET /api/v1/usage-events: the stored events within a key’s reach', () => {
  it('pages every event once, newest occurrence first, each as it was recorded and charged', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await machine(`organization_id=${w.id('T1')}&limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.events.length).toBeLessThanOrEqual(7);
      seen.push(...page.body.events.map((event: { id: string }) => event.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(expected);

    const first = (await machine(`organization_id=${w.id('T1')}&limit=1`)).body.events[0];
    // The batch's one consumption entry of bot: its 20 events, 10.00 in all.
    const entry = await sql<{ id: string; amount: string }>`
      select l.id, l.amount from credit_ledger_entries l where l.organization_id = ${w.id('T1')} and l.agent_type_id = ${agents.bot!.id}`.execute(
      db(),
    );
    expect(entry.rows.map((r) => r.amount)).toEqual(['-10.00']);
    expect(first).toEqual({
      id: 'e19',
      organization_id: w.id('T1'),
      agent: 'bot',
      agent_type_id: agents.bot!.id,
      unit: 'run',
      units: '2.0000',
      price: '0.2500',
      credits_charged: '0.50',
      occurred_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/),
      received_at: expect.any(String),
      ledger_entry_id: entry.rows[0]!.id,
      metadata: { run: 'e19' },
    });
  });

  it('filters by agent, by time and by the consumption entry that charged them', async () => {
    const T1 = w.id('T1');
    const cheap = await machine(`organization_id=${T1}&agent=cheap`);
    expect(cheap.body.events.map((event: { id: string }) => event.id)).toEqual(expected.slice(20));
    const window = await machine(
      `organization_id=${T1}&from=${encodeURIComponent(minutesAgo(95.5))}&to=${encodeURIComponent(minutesAgo(92.5))}`,
    );
    expect(window.body.events.map((event: { id: string }) => event.id)).toEqual(['e7', 'e6', 'e5']);
    const bot = (await machine(`organization_id=${T1}&agent=bot&limit=1`)).body.events[0];
    const byEntry = await machine(`organization_id=${T1}&ledger_entry_id=${bot.ledger_entry_id}`);
    expect(byEntry.body.events[0]).toEqual(bot);
    expect(byEntry.body.events.map((event: { id: string }) => event.id)).toEqual(expected.slice(0, 20));
    expect(await machine(`organization_id=${T1}&agent=nobody`)).toMatchObject({ status: 200, body: { events: [], next_cursor: null } });
  });

  it('answers 404 for an organization out of reach or deleted, and 403 to a key without usage:read', async () => {
    for (const organization of [w.id('A2'), w.id('SA1'), w.id('SA3'), gone.id, '00000000-0000-4000-8000-000000000000']) {
      const refused = await machine(`organization_id=${organization}`);
      expect(refused.status).toBe(404);
    }
    expect((await machine(`organization_id=${w.id('T1')}`, writeOnly.key)).status).toBe(403);
    expect((await machine('limit=5')).status).toBe(400);
    expect((await machine(`organization_id=${w.id('T1')}&cursor=not-a-cursor`)).status).toBe(400);
  });

  it('gives a cursor of another organization no place in this list', async () => {
    const other = (await machine(`organization_id=${w.id('T1')}&limit=1`)).body.next_cursor;
    const elsewhere = await machine(`organization_id=${w.id('A1')}&cursor=${other}`);
    expect(elsewhere.body).toEqual({ events: [], next_cursor: null });
  });
});

describe('GET /api/usage-events: the console reads the events of the organizations it may see', () => {
  it('lists them for the tenant itself and for each organization above it', async () => {
    for (const who of ['T1.user', 'T1.admin', 'A1.manager', 'SA1.support', 'H.admin']) {
      const page = await consoleList(who, `organization_id=${w.id('T1')}&limit=100`);
      expect(page.status).toBe(200);
      expect(page.body.events.map((event: { id: string }) => event.id)).toEqual(expected);
    }
    const own = await consoleList('T1.admin', `agent_type_id=${agents.cheap!.id}`);
    expect(own.body.events).toHaveLength(10);
  });

  it('answers 404 for an organization outside the caller’s scope or deleted', async () => {
    expect((await consoleList('T1.admin', `organization_id=${w.id('A1')}`)).status).toBe(404);
    expect((await consoleList('A1.admin', `organization_id=${w.id('A3')}`)).status).toBe(404);
    expect((await consoleList('H.admin', `organization_id=${gone.id}`)).status).toBe(404);
  });

  it('exports the filtered events as CSV, one row each', async () => {
    const answer = await fetch(`${w.t.baseUrl}/api/usage-events/export?organization_id=${w.id('T1')}&agent_type_id=${agents.bot!.id}`, {
      headers: { authorization: `Bearer ${await w.as('A1.admin')}` },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await answer.text()).trim().split(/\r?\n/);
    expect(lines[0]).toContain('occurred_at,received_at,id,agent,units,price,credits_charged,ledger_entry_id,metadata,organization_id');
    expect(lines).toHaveLength(21);
    expect(lines[1]).toContain(',e19,bot,2.0000,0.2500,0.50,');
  });
});
