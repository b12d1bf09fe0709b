import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../test/harness.ts';
import { reconcile } from '../modules/credits/reconcile.ts';
import { activate, balanceOf, cents, fund, insertAgentType, insertApiKey } from '../test/usage-rows.ts';
import { parseSimulateArgs, simulateMain, simulateUsage, type SimulateOptions } from './usage-simulate.ts';

/**
 * The simulator against the real app on a test database: what it prints as charged is what
 * the balances lost, a replay charges nothing, a short balance shows its rejections, and a
 * failure of the network or of the key stops it with a message and a non-zero exit code.
 */

const w = useWorld();
const db = () => w.t.database.db;
let key: string;
let stateDir: string;

const options = (overrides: Partial<SimulateOptions> = {}): SimulateOptions => ({
  ...parseSimulateArgs([
    '--key',
    key,
    '--url',
    w.t.baseUrl,
    '--org',
    w.id('T1'),
    '--agent',
    'sim-bot',
    '--interval',
    '0',
    '--state',
    join(stateDir, 'last.json'),
  ]),
  ...overrides,
});

/** Runs the simulator, returning its result and every line it printed. */
async function run(opts: SimulateOptions) {
  const lines: string[] = [];
  const result = await simulateUsage(opts, (line) => lines.push(line));
  return { result, lines, text: lines.join('\n') };
}

beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), 'usage-simulate-'));
  const agent = await insertAgentType(db(), 'sim-bot', '0.0125');
  await activate(db(), w.id('T1'), agent.id);
  await activate(db(), w.id('T2'), agent.id);
  await fund(db(), w.id('T1'), '50.00');
  // Enough for a few events only: the rest is refused for want of credits.
  await fund(db(), w.id('T2'), '0.10');
  key = (await insertApiKey(db(), w.id('A1'))).key;
});
afterAll(() => {
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

describe('usage:simulate', () => {
  it('sends batches through the machine API and prints totals equal to the balance change', async () => {
    const before = await balanceOf(db(), w.id('T1'));
    // A1 is no tenant and runs no agent: not allowed, so nothing is sent for it.
    const { result, lines, text } = await run(options({ organizations: [w.id('T1'), w.id('A1')], batches: 3, size: 20 }));
    const after = await balanceOf(db(), w.id('T1'));
    expect(text).toContain(`${w.id('A1')}  sim-bot              not allowed (agent_not_active)`);
    expect(result.batches.map((b) => [b.sent, b.accepted, b.duplicates, b.rejected])).toEqual([
      [20, 20, 0, 0],
      [20, 20, 0, 0],
      [20, 20, 0, 0],
    ]);
    expect(cents(result.charged)).toBe(cents(before) - cents(after));
    expect(cents(result.charged)).toBeGreaterThan(0n);
    expect(lines.at(-1)).toBe(`Total charged: ${result.charged} credits.`);
    expect(text).toContain(`${w.id('T1')}  before ${before}, after ${after}`);
    expect(result.balances.find((b) => b.organization_id === w.id('T1'))).toEqual({ organization_id: w.id('T1'), before, after });
    const events = await sql<{ n: number }>`select count(*)::int as n from usage_events where client_event_id like 'sim-%'`.execute(db());
    expect(events.rows[0]!.n).toBe(60);
    const activation = await db()
      .selectFrom('agent_activations')
      .select('last_active_at')
      .where('organization_id', '=', w.id('T1'))
      .executeTakeFirstOrThrow();
    expect(activation.last_active_at).not.toBeNull();
    expect(await reconcile(db())).toMatchObject({ ok: true });
  });

  it('replays the last run: every event a duplicate, nothing charged again', async () => {
    const before = await balanceOf(db(), w.id('T1'));
    const { result, text } = await run(options({ replay: true }));
    expect(text).toContain('Replaying the last run: 3 batches, 60 events');
    expect(result.batches.every((b) => b.duplicates === 20 && b.accepted === 0)).toBe(true);
    expect(result.charged).toBe('0.00');
    expect(await balanceOf(db(), w.id('T1'))).toBe(before);
  });

  it('prints the rejections of a balance that runs out, and charges only what was accepted', async () => {
    const before = await balanceOf(db(), w.id('T2'));
    const { result, text } = await run(options({ organizations: [w.id('T2')], batches: 2, size: 10, heartbeat: false }));
    const after = await balanceOf(db(), w.id('T2'));
    expect(result.batches.reduce((sum, b) => sum + b.rejected, 0)).toBeGreaterThan(0);
    expect(text).toMatch(/rejected insufficient_credits ×\d+: /);
    expect(cents(result.charged)).toBe(cents(before) - cents(after));
    expect(await reconcile(db())).toMatchObject({ ok: true });
  });

  it("prints, beside the balances, what each seller named earned: its balance's gain, read from the entitlement answer", async () => {
    // Agency One sells sim-bot to its tenants 20 % above the catalog (0.0125 → 0.0150).
    const agent = await db().selectFrom('agent_types').select('id').where('code', '=', 'sim-bot').executeTakeFirstOrThrow();
    await db()
      .insertInto('organization_prices')
      .values({ organization_id: w.id('A1'), agent_type_id: agent.id, price: '0.0150', effective_from: new Date(Date.now() - 60_000) })
      .execute();
    const [t1Before, a1Before] = [await balanceOf(db(), w.id('T1')), await balanceOf(db(), w.id('A1'))];
    const earnedBefore = await sql<{ total: string }>`
      select coalesce(sum(amount), 0)::numeric(16, 2)::text as total from credit_ledger_entries
      where organization_id = ${w.id('A1')} and entry_type = 'earning'`.execute(db());
    // The key is Agency One's: Super One, above it, is out of its reach.
    const { result, text } = await run(options({ sellers: [w.id('A1'), w.id('SA1')], batches: 2, size: 20, heartbeat: false }));
    const [t1After, a1After] = [await balanceOf(db(), w.id('T1')), await balanceOf(db(), w.id('A1'))];
    const earnedAfter = await sql<{ total: string }>`
      select coalesce(sum(amount), 0)::numeric(16, 2)::text as total from credit_ledger_entries
      where organization_id = ${w.id('A1')} and entry_type = 'earning'`.execute(db());
    const earned = cents(earnedAfter.rows[0]!.total) - cents(earnedBefore.rows[0]!.total);
    expect(earned).toBeGreaterThan(0n);
    expect(cents(a1After) - cents(a1Before)).toBe(earned);
    const a1 = result.earnings.find((e) => e.organization_id === w.id('A1'))!;
    expect(a1).toEqual({ organization_id: w.id('A1'), before: a1Before, after: a1After, earned: a1.earned });
    expect(cents(a1.earned!)).toBe(earned);
    expect(result.earnings.find((e) => e.organization_id === w.id('SA1'))?.earned).toBeNull();
    const balances = text.slice(text.indexOf('Balances:'));
    expect(balances).toContain(`${w.id('T1')}  before ${t1Before}, after ${t1After}`);
    expect(balances).toContain(`${w.id('A1')}  earned ${a1.earned} (balance before ${a1Before}, after ${a1After})`);
    expect(balances).toContain(`${w.id('SA1')}  a seller out of the key's reach`);
    expect(await reconcile(db())).toMatchObject({ ok: true });
  });

  it('stops with a message and exit code 1 on a refused key or an unreachable server, 2 on bad options', async () => {
    const errors: string[] = [];
    const quiet = () => {};
    const base = ['--url', w.t.baseUrl, '--org', w.id('T1'), '--agent', 'sim-bot', '--state', join(stateDir, 'other.json')];
    expect(await simulateMain(['--key', `oc_00000000_${'a'.repeat(64)}`, ...base], {}, quiet, (l) => errors.push(l))).toBe(1);
    expect(errors.at(-1)).toMatch(/^usage:simulate stopped: GET \/api\/v1\/entitlements answered HTTP 401 \(invalid_api_key: /);

    // A port that was just free: nothing listens there.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    await new Promise((resolve) => server.close(resolve));
    expect(await simulateMain(['--key', key, ...base, '--url', `http://127.0.0.1:${port}`], {}, quiet, (l) => errors.push(l))).toBe(1);
    expect(errors.at(-1)).toContain(`Cannot reach http://127.0.0.1:${port}`);

    expect(await simulateMain(['--org', w.id('T1')], {}, quiet, (l) => errors.push(l))).toBe(2);
    expect(errors.at(-1)).toContain('An API key is needed');
    expect(await simulateMain(['--size', '5000'], { API_KEY: key }, quiet, (l) => errors.push(l))).toBe(2);
    expect(
      parseSimulateArgs(['--org', 'a,b', '--org', 'c', '--agent', 'x', '--seller', 's1,s2'], { API_KEY: key, APP_URL: 'http://h:1/' }),
    ).toMatchObject({
      key,
      url: 'http://h:1',
      organizations: ['a', 'b', 'c'],
      agents: ['x'],
      sellers: ['s1', 's2'],
      batches: 5,
      size: 50,
    });
  });
});
