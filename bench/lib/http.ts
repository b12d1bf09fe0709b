import { loadavg } from 'node:os';
import autocannon from 'autocannon';
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

  const probe = await fetch(url, { method: load.method, headers, body });
  if (!probe.ok) throw new Error(`${load.method} ${load.path} answered ${probe.status}: ${await probe.text()}`);

  const options = { url, method: load.method, headers, body, connections: load.connections, timeout: 30 };
  await autocannon({ ...options, duration: Math.min(2, load.durationSeconds) });
  const cpuBefore = await server.cpuMicros();
  const result = await autocannon({ ...options, duration: load.durationSeconds });
  const cpuMicros = (await server.cpuMicros()) - cpuBefore;
  return {
    name: load.name,
    database: server.database,
    connections: load.connections,
    durationSeconds: load.durationSeconds,
    requests: result.requests.total,
    rps: round(result.requests.total / result.duration, 1),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    cpuMsPerRequest: round(cpuMicros / 1000 / Math.max(1, result.requests.total), 1),
    // Other work on the machine shows here (the bench itself accounts for about 2).
    loadAverage: round(loadavg()[0]!, 1),
  };
}

export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
