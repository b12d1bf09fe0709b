/**
 * Reads the API hosts' `GET /metrics` (bearer METRICS_TOKEN) while a load runs, as an operator's
 * Prometheus would: once before the load, every second during it, once after. What the scrapes
 * said is summed up per load (requests counted on the load's route, pool in use and waiting,
 * usage events, ledger entries, replica lag, event-loop lag), and one scrape's text taken during
 * the load is kept as evidence that the figures were there while it ran.
 */
import { parseExposition, valueOf, type Sample } from '../../apps/server/src/test/prometheus-text.ts';
import type { Column, Row } from './types.ts';

const EVERY_MS = 1000;
/** The excerpt kept per load: the console's own series and the event-loop lag, without histogram buckets. */
const EXCERPT = /^(console_(?!.*_bucket)|nodejs_eventloop_lag_p99_seconds|process_cpu_seconds_total)/;

export interface Scrape {
  host: number;
  at: number;
  samples: Sample[];
  text: string;
}

export const METRICS_COLUMNS: Column[] = [
  { key: 'name', label: 'load', format: 'text' },
  { key: 'scrapes', label: 'scrapes', format: 'int' },
  { key: 'routeRequests', label: 'route requests (metrics)', format: 'int' },
  { key: 'routeErrors', label: 'route 5xx (metrics)', format: 'int' },
  { key: 'eventsAccepted', label: 'events accepted', format: 'int' },
  { key: 'ledgerEntries', label: 'ledger entries written', format: 'int' },
  { key: 'poolInUseMax', label: 'pool in use (max)', format: 'int' },
  { key: 'poolWaitingMax', label: 'pool waiting (max)', format: 'int' },
  { key: 'replicaLagBytesMax', label: 'replica lag (max)', format: 'bytes' },
  { key: 'replicaLagSecondsMax', label: 'replica lag s (max)', format: 'fixed2' },
  { key: 'eventLoopP99MsMax', label: 'event loop p99 (max)', format: 'ms' },
];

const sum = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((total, s) => total + s.value, 0);

/** One row for a load watched in two parts: the counts added, the highest of the maxima. */
export function mergeMetrics(a: Row, b: Row): Row {
  const added = ['scrapes', 'routeRequests', 'routeErrors', 'eventsAccepted', 'ledgerEntries'];
  const merged: Row = { ...a };
  for (const { key } of METRICS_COLUMNS.slice(1)) {
    const [x, y] = [a[key], b[key]];
    if (typeof x !== 'number' || typeof y !== 'number') merged[key] = typeof x === 'number' ? x : (y ?? null);
    else merged[key] = added.includes(key) ? x + y : Math.max(x, y);
  }
  return merged;
}

export async function scrape(url: string, token: string): Promise<{ text: string; samples: Sample[] }> {
  const answer = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  if (!answer.ok) throw new Error(`GET ${url}/metrics answered ${answer.status}`);
  const text = await answer.text();
  return { text, samples: parseExposition(text) };
}

/**
 * Scrapes `hosts` (their base URLs) before, during and after `fn`, and answers `fn`'s result
 * with the summary row for the load on `route` (its pattern and method) and the excerpt.
 */
export async function watchMetrics<T>(
  hosts: string[],
  token: string,
  load: { name: string; route: string; method: string },
  fn: () => Promise<T>,
): Promise<{ result: T; row: Row; excerpt: string }> {
  const read = async (at: number) =>
    Promise.all(hosts.map(async (url, host) => ({ host, at, ...(await scrape(url, token)) }) satisfies Scrape));
  const started = Date.now();
  const before = await read(0);
  const during: Scrape[] = [];
  let failure: unknown = null;
  const timer = setInterval(() => {
    read(Date.now() - started).then(
      (scrapes) => during.push(...scrapes),
      (error: unknown) => (failure ??= error),
    );
  }, EVERY_MS);
  let result: T;
  try {
    result = await fn();
  } finally {
    clearInterval(timer);
  }
  const after = await read(Date.now() - started);
  if (failure) throw failure;
  const all = [...during, ...after];
  const route = { route: load.route, method: load.method };
  const count = 'console_http_request_duration_seconds_count';
  const delta = (pick: (samples: Sample[]) => number) =>
    hosts.reduce((total, _, host) => total + pick(after[host]!.samples) - pick(before[host]!.samples), 0);
  const max = (pick: (samples: Sample[]) => number | undefined) => {
    const values = all.map((s) => pick(s.samples)).filter((v): v is number => v !== undefined);
    return values.length ? Math.max(...values) : null;
  };
  // The ledger's figure is read from the one database at each scrape: one host's is the whole of it.
  const ledger = (samples: Sample[]) => sum(samples, 'console_ledger_entries');
  const row: Row = {
    name: load.name,
    scrapes: before.length + all.length,
    routeRequests: delta((s) => sum(s, count, route)),
    routeErrors: delta((s) => sum(s, count, { ...route, status_class: '5xx' })),
    eventsAccepted: delta((s) => sum(s, 'console_usage_events_total', { outcome: 'accepted' })),
    ledgerEntries: ledger(after[0]!.samples) - ledger(before[0]!.samples),
    poolInUseMax: max((s) => valueOf(s, 'console_db_pool_in_use')),
    poolWaitingMax: max((s) => valueOf(s, 'console_db_pool_waiting')),
    replicaLagBytesMax: max((s) => valueOf(s, 'console_db_replica_lag_bytes')),
    replicaLagSecondsMax: max((s) => valueOf(s, 'console_db_replica_lag_seconds')),
    eventLoopP99MsMax: max((s) => {
      const seconds = valueOf(s, 'nodejs_eventloop_lag_p99_seconds');
      return seconds === undefined ? undefined : Math.round(seconds * 1000 * 10) / 10;
    }),
  };
  // Host 0's scrape nearest the middle of the load, as the text an operator's curl would have
  // shown (host 0 is the one with the replica, so its lag is in it when it has one).
  const first = during.filter((s) => s.host === 0);
  const middle = first.length ? first[Math.floor(first.length / 2)]! : after[0]!;
  const excerpt = [
    `# host ${middle.host}, ${(middle.at / 1000).toFixed(1)} s into "${load.name}"`,
    ...middle.text.split('\n').filter((line) => EXCERPT.test(line)),
  ].join('\n');
  return { result, row, excerpt };
}
