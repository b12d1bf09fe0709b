/**
 * Graceful shutdown and database outage, on the real server process:
 * - SIGTERM: requests under way finish 2xx, new ones are refused, the process exits 0;
 *   a request that never ends cannot hold the process past the grace period;
 * - the database cut behind a TCP proxy: requests fail fast with 503 in the error shape,
 *   /api/health says degraded, and once the proxy is restored the server recovers alone;
 * - CONSOLE_WORKERS=2: both processes serve, a killed one is replaced while the other
 *   serves, and SIGTERM finishes the requests under way in every process and exits 0;
 *   without PostgreSQL the setting is refused.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ADMIN,
  api,
  createDatabase,
  creditTotals,
  fundedHouse,
  killServers,
  must,
  reconcileDatabase,
  round1,
  signIn,
  sleep,
  startServer,
  withClient,
  writeResults,
  type FreshDatabase,
  type ServerProcess,
} from './harness.ts';
import { EXPORT_LIMITS } from '../apps/server/src/lib/csv.ts';
import { startProxy, type CutMode, type TcpProxy } from './tcp-proxy.ts';
import { cpuTicks } from '../support/proc.ts';
import { startServerProcess } from '../support/server-process.ts';
import { parseExposition, valueOf } from '../apps/server/src/test/prometheus-text.ts';

const FUNDS_CENTS = 100_000_000;
/** Extra ledger rows on the house, so that exporting its ledger takes a while. */
const LEDGER_ROWS = 20_000;
/** As many exports as one person may run at once (more are refused with 429). */
const EXPORTS = EXPORT_LIMITS.perUser;
/** main.ts SHUTDOWN_GRACE_MS. */
const GRACE_MS = 10_000;
/** pg pool connectionTimeoutMillis (apps/server/src/db/connection.ts). */
const CONNECT_TIMEOUT_MS = 3_000;

let database: FreshDatabase;
let proxy: TcpProxy | undefined;
let houseId: string;
let childId: string;
const figures: Record<string, unknown> = {};
const outage: Record<string, unknown> = {};

beforeAll(async () => {
  database = await createDatabase();
  const server = await startServer({ databaseUrl: database.url });
  const token = await signIn(server.url);
  const funded = await fundedHouse(server.url, token, { suite: 'Graceful', fundsCents: FUNDS_CENTS, children: 1 });
  houseId = funded.houseId;
  childId = funded.children[0]!;
  server.signal('SIGTERM');
  await server.exited;
  // Written in SQL for speed, but kept consistent: adjustments of 0.01, each with its balance_after.
  await withClient(database.url, async (client) => {
    await client.query(
      `insert into credit_ledger_entries (organization_id, amount, entry_type, transaction_group, balance_after)
       select b.organization_id, 0.01, 'adjustment_increase', gen_random_uuid(), b.credit_balance + n * 0.01
       from organization_billing_settings b, generate_series(1, $2::int) n where b.organization_id = $1`,
      [houseId, LEDGER_ROWS],
    );
    await client.query(
      `update organization_billing_settings set credit_balance = credit_balance + $2::int * 0.01 where organization_id = $1`,
      [houseId, LEDGER_ROWS],
    );
  });
}, 120_000);

afterAll(async () => {
  await killServers();
  await proxy?.close();
  await database?.drop();
  writeResults('graceful', figures);
});

/** A POST whose body is sent in two parts, so the request stays under way until sendRest(). */
function slowPost(url: string, path: string, token: string, payload: unknown, headers: Record<string, string> = {}) {
  const body = JSON.stringify(payload);
  const request = http.request(url + path, {
    method: 'POST',
    agent: false,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      ...headers,
    },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('error', reject);
    request.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', reject);
    });
  });
  response.catch(() => {});
  const half = Math.floor(body.length / 2);
  request.write(body.slice(0, half));
  return { response, sendRest: () => request.end(body.slice(half)) };
}

/**
 * A GET on a fresh connection (or the given agent's), reporting the status or the network
 * error's code; a 503 without the error shape reports as '503 unshaped'.
 */
function probe(url: string, agent: http.Agent | false = false): Promise<string> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => {
        const shaped = res.statusCode !== 503 || typeof (JSON.parse(text) as { error?: { code?: unknown } }).error?.code === 'string';
        resolve(shaped ? String(res.statusCode) : '503 unshaped');
      });
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe('SIGTERM', () => {
  test('finishes the requests under way, refuses new ones, exits 0', async () => {
    const server = await startServer({ databaseUrl: database.url });
    const token = await signIn(server.url);
    const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect(await probe(`${server.url}/api/health`, keepAlive)).toBe('200');

    const exportStarted = performance.now();
    const exports = await Promise.all(
      Array.from({ length: EXPORTS }, () =>
        fetch(`${server.url}/api/credits/ledger/export`, { headers: { authorization: `Bearer ${token}` } }),
      ),
    );
    const exportBodies = exports.map(async (response) => ({ text: await response.text(), doneAt: performance.now() }));
    const allocation = slowPost(
      server.url,
      '/api/credits/allocations',
      token,
      { from_org_id: houseId, to_org_id: childId, amount: '1.00' },
      { 'idempotency-key': 'graceful-slow' },
    );
    await sleep(300);

    const signalled = performance.now();
    server.signal('SIGTERM');
    // New requests once the signal is handled (one racing it may still be served): 503 while
    // Fastify closes (or a reset for one accepted as the listener closes), then the connection
    // refused once it has stopped listening.
    const probes: { ms: number; outcome: string }[] = [];
    while (performance.now() - signalled < 3000) {
      const outcome = await probe(`${server.url}/api/health`);
      if (probes.at(-1)?.outcome !== outcome) probes.push({ ms: Math.round(performance.now() - signalled), outcome });
      if (outcome === 'ECONNREFUSED') break;
      await sleep(20);
    }
    const keptAliveConnection = await probe(`${server.url}/api/health`, keepAlive);
    await sleep(500);
    allocation.sendRest();

    const bodies = await Promise.all(exportBodies);
    const lines = bodies.map((b) => b.text.split('\r\n').filter(Boolean).length);
    const exportMs = Math.max(...bodies.map((b) => b.doneAt)) - exportStarted;
    const slow = await allocation.response;
    const exit = await server.exited;
    const exitMs = performance.now() - signalled;
    keepAlive.destroy();

    figures.shutdown = {
      requestsUnderWayAtSigterm: EXPORTS + 1,
      exportsCompleted: exports.filter((r) => r.status === 200).length,
      exportRowsEach: lines,
      exportsMs: Math.round(exportMs),
      slowAllocationStatus: slow.status,
      newConnectionsAfterSigterm: probes,
      keptAliveConnectionAfterSigterm: keptAliveConnection,
      exitCode: exit.code,
      sigtermToExitMs: Math.round(exitMs),
    };
    console.log('graceful shutdown', JSON.stringify(figures.shutdown, null, 2));

    // Header line, LEDGER_ROWS added rows, the funding adjustment.
    expect(exports.map((r) => r.status)).toEqual(Array(EXPORTS).fill(200));
    expect(lines).toEqual(Array(EXPORTS).fill(LEDGER_ROWS + 2));
    expect(bodies.every((b) => b.doneAt > signalled)).toBe(true);
    expect(slow.status).toBe(200);
    expect(JSON.parse(slow.body)).toMatchObject({ transaction_id: expect.any(String) });
    const refusing = probes.findIndex((p) => p.outcome !== '200');
    expect(refusing).toBeGreaterThanOrEqual(0);
    expect(probes[refusing]!.ms).toBeLessThan(1000);
    // A connection accepted in the instant the listener closes is reset rather than refused.
    const refusals = ['503', 'ECONNREFUSED', 'ECONNRESET', 'socket hang up'];
    expect(
      probes
        .slice(refusing)
        .map((p) => p.outcome)
        .filter((o) => !refusals.includes(o)),
    ).toEqual([]);
    expect(['ECONNREFUSED', 'ECONNRESET', '503', 'socket hang up']).toContain(keptAliveConnection);
    expect(exit).toEqual({ code: 0, signal: null });
  });

  test('exits after the grace period when a request never ends', async () => {
    const server = await startServer({ databaseUrl: database.url });
    const token = await signIn(server.url);
    const stuck = slowPost(server.url, '/api/credits/allocations', token, { from_org_id: houseId, to_org_id: childId, amount: '1.00' });
    await sleep(300);
    const signalled = performance.now();
    server.signal('SIGTERM');
    const exit = await server.exited;
    const exitMs = performance.now() - signalled;
    const outcome = await stuck.response.then(
      (r) => String(r.status),
      (error: NodeJS.ErrnoException) => error.code ?? error.message,
    );
    figures.forcedShutdown = { graceMs: GRACE_MS, exitCode: exit.code, sigtermToExitMs: Math.round(exitMs), stuckRequest: outcome };
    console.log('shutdown with a stuck request', JSON.stringify(figures.forcedShutdown));
    expect(exit.code).toBe(1);
    expect(exitMs).toBeGreaterThanOrEqual(GRACE_MS - 100);
    expect(exitMs).toBeLessThan(GRACE_MS + 3000);
  });
});

describe('database outage', () => {
  let server: ServerProcess;
  let token: string;

  beforeAll(async () => {
    const target = new URL(database.url);
    proxy = await startProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(database.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    server = await startServer({ databaseUrl: viaProxy.toString() });
    token = await signIn(server.url);
  });

  /** The calls that must each answer 503 while the database is away. */
  const calls = () => [
    { name: 'GET /api/health', run: () => api(server.url, 'GET', '/api/health') },
    { name: 'GET /api/users/me', run: () => api(server.url, 'GET', '/api/users/me', { token }) },
    { name: 'GET /api/organizations', run: () => api(server.url, 'GET', '/api/organizations', { token }) },
    { name: 'GET /api/dashboard', run: () => api(server.url, 'GET', '/api/dashboard', { token }) },
    {
      name: 'POST /api/credits/allocations',
      run: () =>
        api(server.url, 'POST', '/api/credits/allocations', {
          token,
          body: { from_org_id: houseId, to_org_id: childId, amount: '1.00' },
          headers: { 'idempotency-key': `outage-${Math.random()}` },
        }),
    },
    { name: 'POST /api/auth/sign-in', run: () => api(server.url, 'POST', '/api/auth/sign-in', { body: ADMIN }) },
  ];

  for (const mode of ['refuse', 'blackhole'] satisfies CutMode[]) {
    test(`${mode}: 503 fast while cut, recovers alone once restored`, async () => {
      expect((await api(server.url, 'GET', '/api/users/me', { token })).status).toBe(200);
      await proxy!.cut(mode);
      const answers = [];
      for (const call of calls()) {
        const result = await call.run();
        answers.push({ name: call.name, status: result.status, ms: round1(result.ms), body: result.body });
      }
      await proxy!.restore();
      const restored = performance.now();
      let recoverMs = -1;
      while (performance.now() - restored < 15_000) {
        const result = await api(server.url, 'GET', '/api/users/me', { token }).catch(() => null);
        if (result?.status === 200) {
          recoverMs = performance.now() - restored;
          break;
        }
        await sleep(50);
      }
      const after = await api(server.url, 'POST', '/api/credits/allocations', {
        token,
        body: { from_org_id: houseId, to_org_id: childId, amount: '1.00' },
        headers: { 'idempotency-key': `after-${mode}` },
      });
      const health = await api(server.url, 'GET', '/api/health');

      const result = {
        answers: answers.map(({ name, status, ms }) => ({ name, status, ms })),
        slowestMs: Math.max(...answers.map((a) => a.ms)),
        recoverMs: Math.round(recoverMs),
        allocationAfterRecovery: after.status,
      };
      outage[mode] = result;
      figures.outage = outage;
      console.log(`outage (${mode})`, JSON.stringify(result, null, 2));

      const [healthAnswer, ...apiAnswers] = answers;
      expect(healthAnswer).toMatchObject({ status: 503, body: { status: 'degraded', database: 'unreachable' } });
      for (const answer of apiAnswers) {
        expect(answer, answer.name).toMatchObject({
          status: 503,
          body: { error: { code: 'unavailable', message: expect.any(String), request_id: expect.any(String) } },
        });
      }
      expect(result.slowestMs).toBeLessThan(mode === 'refuse' ? 1000 : CONNECT_TIMEOUT_MS + 1000);
      expect(recoverMs).toBeGreaterThanOrEqual(0);
      expect(recoverMs).toBeLessThan(5000);
      expect(after.status).toBe(200);
      expect(health).toMatchObject({ status: 200, body: { status: 'ok', database: 'ok' } });
    });
  }

  test('a cut under load: only 200 or 503, nothing moved twice on retry, books balance', async () => {
    const statuses = new Map<number, number>();
    const networkErrors: string[] = [];
    const unavailable: { key: string; body: object }[] = [];
    let stopped = false;
    let n = 0;
    const client = async () => {
      while (!stopped) {
        const write = n % 3 === 0;
        const key = `load-${n++}`;
        const body = { from_org_id: houseId, to_org_id: childId, amount: '0.01' };
        try {
          const result = write
            ? await api(server.url, 'POST', '/api/credits/allocations', { token, body, headers: { 'idempotency-key': key } })
            : await api(server.url, 'GET', n % 2 ? '/api/users/me' : '/api/organizations', { token });
          statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
          if (write && result.status === 503) unavailable.push({ key, body });
        } catch (error) {
          networkErrors.push(String(error));
        }
      }
    };
    const clients = Promise.all(Array.from({ length: 8 }, client));
    await sleep(1000);
    await proxy!.cut('refuse');
    await sleep(2000);
    await proxy!.restore();
    await sleep(2000);
    stopped = true;
    await clients;

    // A 503'd allocation may have committed before the connection dropped: its retry returns that.
    for (const { key, body } of unavailable) {
      const first = await must<{ transaction_id: string }>(server.url, 'POST', '/api/credits/allocations', {
        token,
        body,
        headers: { 'idempotency-key': key },
      });
      const again = await must<{ transaction_id: string }>(server.url, 'POST', '/api/credits/allocations', {
        token,
        body,
        headers: { 'idempotency-key': key },
      });
      expect(again.transaction_id).toBe(first.transaction_id);
    }
    const books = await reconcileDatabase(database.url);
    const totals = await creditTotals(database.url);
    const result = {
      statuses: Object.fromEntries(statuses),
      networkErrors: networkErrors.length,
      allocationsRetried: unavailable.length,
      reconcile: books.ok,
    };
    outage.underLoad = result;
    figures.outage = outage;
    console.log('outage under load', JSON.stringify(result));

    expect([...statuses.keys()].sort()).toEqual([200, 503]);
    expect(networkErrors).toEqual([]);
    expect(books.ok).toBe(true);
    expect(totals.balancesCents).toBe(totals.adjustmentsCents);
  });

  afterAll(async () => {
    server?.signal('SIGTERM');
    const exit = await server?.exited;
    expect(exit?.code).toBe(0);
  });
});

describe('CONSOLE_WORKERS=2', () => {
  const METRICS_TOKEN = 'metrics-token-of-the-workers-test-0123456789';
  /** GET /api/users/me answers counted by a scrape of /metrics, over a new connection. */
  const scrapeReads = async (url: string) => {
    const answer = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}`, connection: 'close' } });
    expect(answer.status).toBe(200);
    const samples = parseExposition(await answer.text());
    return (
      valueOf(samples, 'console_http_request_duration_seconds_count', { route: '/api/users/me', method: 'GET', status_class: '2xx' }) ?? 0
    );
  };
  /** The worker processes of a primary: its node children running main.ts (tsx's esbuild left out). */
  const workersOf = (pid: number): number[] =>
    readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter(Boolean)
      .map(Number)
      .filter((child) => readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('main.ts'));

  test('both processes serve, and a scrape of either answers for both; a killed one is replaced; SIGTERM drains both and exits 0', async () => {
    const server = await startServer({ databaseUrl: database.url, env: { CONSOLE_WORKERS: '2', METRICS_TOKEN } });
    const token = await signIn(server.url);
    // Both may still be starting when the first answers /api/health.
    for (let n = 0; n < 100 && !server.output().includes('2 processes'); n++) await sleep(100);
    const workers = workersOf(server.pid);
    expect(workers).toHaveLength(2);

    const reads = async (count: number) => {
      const statuses = await Promise.all(
        Array.from({ length: count }, () =>
          api(server.url, 'GET', '/api/users/me', { token, headers: { connection: 'close' } }).then(
            (r) => r.status,
            () => 0,
          ),
        ),
      );
      return statuses.filter((s) => s === 200).length;
    };
    const before = workers.map(cpuTicks);
    expect(await reads(200)).toBe(200);
    const used = workers.map((pid, n) => cpuTicks(pid) - before[n]!);
    // Each scrape reaches one worker (a new connection each), and counts the 200 reads of both.
    const scraped = await Promise.all([scrapeReads(server.url), scrapeReads(server.url), scrapeReads(server.url)]);

    const [killed, survivor] = workers as [number, number];
    process.kill(killed, 'SIGKILL');
    // The survivor serves while the replacement starts.
    await sleep(200);
    const duringRestart = await reads(20);
    let replaced: number[] = [];
    for (let n = 0; n < 300; n++) {
      replaced = workersOf(server.pid);
      if (replaced.length === 2 && !replaced.includes(killed)) break;
      await sleep(100);
    }
    // The primary hands connections only to workers that listen, so the new one needs no wait.
    const afterRestart = await reads(50);

    // A request under way in a worker when the primary is told to stop still finishes.
    const slow = slowPost(
      server.url,
      '/api/credits/allocations',
      token,
      { from_org_id: houseId, to_org_id: childId, amount: '1.00' },
      { 'idempotency-key': 'workers-slow' },
    );
    await sleep(300);
    const signalled = performance.now();
    server.signal('SIGTERM');
    await sleep(500);
    slow.sendRest();
    const slowAnswer = await slow.response;
    const exit = await server.exited;
    const left = [...replaced, killed].filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });

    figures.workers = {
      processes: 2,
      cpuTicksPerProcessFor200Reads: used,
      readsCountedByEachScrape: scraped,
      readsOkWhileOneRestarts: duringRestart,
      killedOneReplaced: replaced.includes(survivor) && !replaced.includes(killed),
      readsOkAfterReplacement: afterRestart,
      slowAllocationAtSigterm: slowAnswer.status,
      exitCode: exit.code,
      sigtermToExitMs: Math.round(performance.now() - signalled),
      processesLeft: left.length,
    };
    console.log('two workers', JSON.stringify(figures.workers, null, 2));

    expect(
      used.every((ticks) => ticks > 0),
      `CPU ticks per worker: ${used}`,
    ).toBe(true);
    expect(scraped.every((reads) => reads >= 200)).toBe(true);
    expect(duringRestart).toBe(20);
    expect(replaced).toHaveLength(2);
    expect(replaced).toContain(survivor);
    expect(replaced).not.toContain(killed);
    expect(afterRestart).toBe(50);
    expect(slowAnswer.status).toBe(200);
    expect(exit, server.output()).toEqual({ code: 0, signal: null });
    expect(left).toEqual([]);
  });

  test('is refused without PostgreSQL, with a message saying why', async () => {
    const start = startServerProcess({ env: { CONSOLE_WORKERS: '2', DATABASE_URL: '' } });
    await expect(start).rejects.toThrow(/CONSOLE_WORKERS: 2 processes need PostgreSQL \(set DATABASE_URL\)/);
  });
});
