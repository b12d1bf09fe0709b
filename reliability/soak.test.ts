/**
 * Soak (`npm run test:soak`, not in CI): mixed reads and writes at a fixed concurrency,
 * as fast as the machine answers, for SOAK_SECONDS (default 300). No error may occur,
 * latency is reported per minute, the server's memory must stay bounded, and the books
 * must reconcile afterwards.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  ADMIN,
  api,
  createDatabase,
  creditTotals,
  fundedHouse,
  killServers,
  percentile,
  reconcileDatabase,
  round1,
  signIn,
  sleep,
  startServer,
  writeResults,
  type FreshDatabase,
  type ServerProcess,
} from './harness.ts';

const SOAK_SECONDS = Number(process.env.SOAK_SECONDS ?? 300);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 16);
/** Not measured: the process reaches its working size (JIT, pools, caches) first. */
const WARMUP_SECONDS = 15;
const RSS_SAMPLE_MS = 5000;
const MAX_RSS_GROWTH = 1.5;
const FUNDS_CENTS = 1_000_000_000;
const CHILDREN = 3;

type Kind = 'sign-in' | 'users/me' | 'organizations' | 'dashboard' | 'ledger' | 'allocation';
/** Share of each kind of request, in thousandths; sign-in is rare (argon2 is meant to be slow). */
const MIX: [Kind, number][] = [
  ['sign-in', 5],
  ['users/me', 250],
  ['organizations', 200],
  ['dashboard', 150],
  ['ledger', 150],
  ['allocation', 245],
];

interface Minute {
  latencies: number[];
  errors: number;
  status5xx: number;
}

let database: FreshDatabase;
let server: ServerProcess;

beforeAll(async () => {
  database = await createDatabase();
  server = await startServer({ databaseUrl: database.url });
});

afterAll(async () => {
  await killServers();
  await database?.drop();
});

function pick(): Kind {
  let n = Math.random() * 1000;
  for (const [kind, share] of MIX) {
    n -= share;
    if (n < 0) return kind;
  }
  return 'users/me';
}

test(`soak: ${SOAK_SECONDS} s of mixed load at ${CONNECTIONS} connections`, {
  timeout: (SOAK_SECONDS + WARMUP_SECONDS + 180) * 1000,
}, async () => {
  let token = await signIn(server.url);
  const { houseId, children } = await fundedHouse(server.url, token, { suite: 'Soak', fundsCents: FUNDS_CENTS, children: CHILDREN });

  let sequence = 0;
  const send = (kind: Kind) => {
    switch (kind) {
      case 'sign-in':
        return api<{ access_token: string }>(server.url, 'POST', '/api/auth/sign-in', { body: ADMIN });
      case 'users/me':
        return api(server.url, 'GET', '/api/users/me', { token });
      case 'organizations':
        return api(server.url, 'GET', '/api/organizations', { token });
      case 'dashboard':
        return api(server.url, 'GET', '/api/dashboard', { token });
      case 'ledger':
        return api(server.url, 'GET', `/api/credits/ledger?organization_id=${children[sequence % CHILDREN]}`, { token });
      case 'allocation': {
        const n = sequence++;
        return api(server.url, 'POST', '/api/credits/allocations', {
          token,
          body: { from_org_id: houseId, to_org_id: children[n % CHILDREN]!, amount: '0.01' },
          headers: { 'idempotency-key': `soak-${n}` },
        });
      }
    }
  };

  const started = performance.now();
  const measureFrom = started + WARMUP_SECONDS * 1000;
  const endAt = measureFrom + SOAK_SECONDS * 1000;
  const minutes: Minute[] = [];
  const byKind = new Map<Kind, number[]>();
  const failures: string[] = [];
  let warmupRequests = 0;
  let warmupErrors = 0;
  const worker = async () => {
    while (performance.now() < endAt) {
      const kind = pick();
      const at = performance.now();
      let outcome: { status: number; ms: number; body: unknown } | string;
      try {
        outcome = await send(kind);
      } catch (error) {
        outcome = String(error);
      }
      const ok = typeof outcome !== 'string' && outcome.status < 300;
      if (!ok && failures.length < 20)
        failures.push(`${kind}: ${typeof outcome === 'string' ? outcome : `${outcome.status} ${JSON.stringify(outcome.body)}`}`);
      if (ok && kind === 'sign-in') token = (outcome as { body: { access_token: string } }).body.access_token;
      if (at < measureFrom) {
        warmupRequests++;
        if (!ok) warmupErrors++;
        continue;
      }
      const minute = (minutes[Math.floor((at - measureFrom) / 60_000)] ??= { latencies: [], errors: 0, status5xx: 0 });
      if (typeof outcome !== 'string') {
        minute.latencies.push(outcome.ms);
        if (!byKind.has(kind)) byKind.set(kind, []);
        byKind.get(kind)!.push(outcome.ms);
      }
      if (!ok) minute.errors++;
      if (typeof outcome !== 'string' && outcome.status >= 500) minute.status5xx++;
    }
  };

  const rss: { atSeconds: number; mib: number }[] = [];
  const sampler = setInterval(
    () => rss.push({ atSeconds: Math.round((performance.now() - started) / 1000), mib: server.rssMiB() }),
    RSS_SAMPLE_MS,
  );
  const workers = Promise.all(Array.from({ length: CONNECTIONS }, worker));
  await sleep(WARMUP_SECONDS * 1000);
  const rssStart = server.rssMiB();
  await workers;
  clearInterval(sampler);
  const rssEnd = server.rssMiB();

  const books = await reconcileDatabase(database.url);
  const totals = await creditTotals(database.url);
  const perMinute = minutes.map((m, index) => ({
    minute: index + 1,
    requests: m.latencies.length,
    rps: round1(m.latencies.length / Math.min(60, SOAK_SECONDS - index * 60)),
    p50Ms: round1(percentile(m.latencies, 50)),
    p99Ms: round1(percentile(m.latencies, 99)),
    errors: m.errors,
    status5xx: m.status5xx,
  }));
  const all = minutes.flatMap((m) => m.latencies);
  const errors = minutes.reduce((sum, m) => sum + m.errors, 0);
  const figures = {
    seconds: SOAK_SECONDS,
    warmupSeconds: WARMUP_SECONDS,
    connections: CONNECTIONS,
    warmupRequests,
    warmupErrors,
    requests: all.length,
    rps: round1(all.length / SOAK_SECONDS),
    p50Ms: round1(percentile(all, 50)),
    p99Ms: round1(percentile(all, 99)),
    errors,
    errorRate: all.length ? errors / all.length : 0,
    status5xx: minutes.reduce((sum, m) => sum + m.status5xx, 0),
    byKind: Object.fromEntries(
      [...byKind].map(([kind, ms]) => [
        kind,
        { requests: ms.length, p50Ms: round1(percentile(ms, 50)), p99Ms: round1(percentile(ms, 99)) },
      ]),
    ),
    perMinute,
    rssMiB: {
      start: rssStart,
      end: rssEnd,
      peak: Math.max(rssStart, rssEnd, ...rss.map((s) => s.mib)),
      growth: Math.round((rssEnd / rssStart) * 100) / 100,
    },
    rssSamples: rss,
    reconcile: books.ok,
    creditsConserved: totals.balancesCents === FUNDS_CENTS && totals.adjustmentsCents === FUNDS_CENTS,
    failures,
  };
  console.log('soak figures', JSON.stringify({ ...figures, rssSamples: undefined }, null, 2));
  writeResults('soak', figures);

  expect(failures).toEqual([]);
  expect(figures.status5xx).toBe(0);
  expect(figures.errorRate).toBe(0);
  expect(warmupErrors).toBe(0);
  expect(books.ok).toBe(true);
  expect(figures.creditsConserved).toBe(true);
  expect(rssEnd).toBeLessThan(rssStart * MAX_RSS_GROWTH);
});
