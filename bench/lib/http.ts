import { loadavg } from 'node:os';
import autocannon, { type Options as AutocannonOptions } from 'autocannon';
import { withClient } from '../../support/postgres.ts';
import type { BenchServer } from './server.ts';
import type { Column, Row } from './types.ts';

export interface HttpLoad {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  connections: number;
  durationSeconds: number;
  /**
   * Makes each request distinct: called with 0, 1, 2, ... once per request sent (the
   * probe, the warm-up and the measured run share the count); what it returns replaces
   * the path, adds to the headers, or replaces the body.
   */
  rotate?: (n: number) => { path?: string; headers?: Record<string, string>; body?: unknown };
  /**
   * Measure at least this many requests: when the warm-up's rate says the duration would send
   * fewer, the measured run sends exactly this many and lasts as long as they take (a slow
   * request, such as a large batch, is then never judged from one or two of them).
   */
  minRequests?: number;
  /** Profile the server during the measured run (not the warm-up) and write the profile here. */
  profileFile?: string;
}

/** The row every HTTP suite writes: throughput, latency of 2xx answers, failures. */
export const HTTP_COLUMNS: Column[] = [
  { key: 'name', label: 'request', format: 'text' },
  { key: 'database', label: 'database', format: 'text' },
  { key: 'connections', label: 'connections', format: 'int' },
  { key: 'durationSeconds', label: 'duration', format: 'seconds' },
  { key: 'requests', label: 'requests', format: 'int' },
  { key: 'rps', label: 'req/s', format: 'fixed1' },
  { key: 'p50Ms', label: 'p50', format: 'ms' },
  { key: 'p99Ms', label: 'p99', format: 'ms' },
  { key: 'errors', label: 'errors', format: 'int' },
  { key: 'non2xx', label: 'non-2xx', format: 'int' },
  { key: 'cpuMsPerRequest', label: 'server CPU/req', format: 'ms' },
  { key: 'loadAverage', label: 'load', format: 'fixed1' },
];

/**
 * Sends one request first (a wrong setup fails loudly instead of measuring 401s), warms
 * the server up, then measures with autocannon.
 */
export async function measure(server: BenchServer, load: HttpLoad): Promise<Row> {
  const headers: Record<string, string> = { ...load.headers };
  const body = load.body === undefined ? undefined : JSON.stringify(load.body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const url = server.url + load.path;

  let sent = 0;
  const next = () => {
    const r = load.rotate!(sent++);
    return {
      path: r.path ?? load.path,
      headers: { ...headers, ...(r.body === undefined ? {} : { 'content-type': 'application/json' }), ...r.headers },
      body: r.body === undefined ? body : JSON.stringify(r.body),
    };
  };

  const first = load.rotate ? next() : { path: load.path, headers, body };
  const probe = await fetch(server.url + first.path, { method: load.method, headers: first.headers, body: first.body });
  if (!probe.ok) throw new Error(`${load.method} ${first.path} answered ${probe.status}: ${await probe.text()}`);

  const options: AutocannonOptions = { url, method: load.method, headers, body, connections: load.connections, timeout: 30 };
  if (load.rotate) {
    // autocannon calls setupRequest each time it builds a request (and once per connection up front).
    options.requests = [{ setupRequest: (request) => ({ ...request, ...next() }) }];
  }
  const warm = await autocannon({ ...options, duration: Math.min(2, load.durationSeconds) });
  await settle(server);
  const expected = (warm.requests.total / Math.max(warm.duration, 0.001)) * load.durationSeconds;
  const counted = load.minRequests !== undefined && expected < load.minRequests ? { amount: load.minRequests } : {};
  if (load.profileFile) await server.profileStart();
  const cpuBefore = await server.cpuMicros();
  const result = await autocannon({ ...options, duration: load.durationSeconds, ...counted });
  const cpuMicros = (await server.cpuMicros()) - cpuBefore;
  if (load.profileFile) await server.profileStop(load.profileFile);
  return {
    name: load.name,
    database: server.database,
    connections: load.connections,
    durationSeconds: 'amount' in counted ? round(result.duration, 1) : load.durationSeconds,
    requests: result.requests.total,
    rps: round(result.requests.total / result.duration, 1),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    cpuMsPerRequest: round(cpuMicros / 1000 / Math.max(1, result.requests.total), 2),
    // Other work on the machine shows here (the bench itself accounts for about 2).
    loadAverage: round(loadavg()[0]!, 1),
  };
}

/**
 * Waits until the server's database runs nothing but this question. autocannon ends a run at
 * its duration and drops what is in flight, but the server finishes those requests: a usage
 * batch of the warm-up would otherwise still hold its locks, and spend the machine, during the
 * measured run, which would count the warm-up's work and not its answers. On PGlite (no URL)
 * the server runs one statement at a time, so nothing is left to wait for that matters.
 */
async function settle(server: BenchServer): Promise<void> {
  if (!server.databaseUrl) return;
  await withClient(server.databaseUrl, async (client) => {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const { rows } = await client.query<{ busy: number }>(
        `select count(*)::int as busy from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid() and state not in ('idle')`,
      );
      if (rows[0]!.busy === 0 || Date.now() > deadline) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
}

export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Signs in through the API (rate limits are raised in the bench server) and returns the access token. */
export async function signIn(server: BenchServer, credentials: { email: string; password: string }): Promise<string> {
  const response = await fetch(`${server.url}/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (!response.ok) throw new Error(`sign-in of ${credentials.email} answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** A JSON call that must succeed (setup steps: funding, lookups). */
export async function call<T>(server: BenchServer, method: 'GET' | 'POST', path: string, token: string, body?: unknown): Promise<T> {
  const response = await fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}
