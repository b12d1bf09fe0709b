import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { round } from './http.ts';
import type { Row } from './types.ts';

const run = promisify(execFile);

/** pgbench's figures from one run: tps as printed (unrounded), and latency percentiles from its log. */
export interface PgbenchRun {
  stdout: string;
  tps: number;
  transactions: number;
  failed: number;
  averageMs: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * Runs pgbench with `args` (before the database url) plus a per-transaction log in a
 * scratch folder, and reads its figures; the folder is removed afterwards.
 */
export async function runPgbench(url: string, args: string[], prepare?: (dir: string) => string[]): Promise<PgbenchRun> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-pgbench-'));
  try {
    const extra = prepare ? prepare(dir) : [];
    const { stdout } = await run('pgbench', [...args, ...extra, '-l', `--log-prefix=${join(dir, 'tx')}`, url], { maxBuffer: 16 << 20 });
    const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(stdout)?.[1]);
    if (!Number.isFinite(tps)) throw new Error(`could not read pgbench's tps:\n${stdout}`);
    const transactions = Number(/number of transactions actually processed: (\d+)/.exec(stdout)?.[1] ?? NaN);
    const failed = Number(/number of failed transactions: (\d+)/.exec(stdout)?.[1] ?? 0);
    const averageMs = Number(/latency average = ([\d.]+) ms/.exec(stdout)?.[1] ?? NaN);
    // Each log line: client_id transaction_no time_us script_no time_epoch time_us_part.
    const latencies = readdirSync(dir)
      .filter((f) => f.startsWith('tx'))
      .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n'))
      .filter(Boolean)
      .map((line) => Number(line.split(' ')[2]) / 1000)
      .sort((a, b) => a - b);
    const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN);
    return { stdout, tps, transactions, failed, averageMs, p50Ms: at(0.5), p99Ms: at(0.99) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A pgbench run as a table row (no database, no HTTP columns). */
export function pgbenchRow(name: string, clients: number, seconds: number, figures: PgbenchRun): Row {
  return {
    name,
    database: null,
    connections: clients,
    durationSeconds: seconds,
    requests: figures.transactions,
    rps: round(figures.tps, 1),
    p50Ms: figures.p50Ms,
    p99Ms: figures.p99Ms,
    errors: figures.failed,
    non2xx: null,
    cpuMsPerRequest: null,
    loadAverage: round(loadavg()[0]!, 1),
  };
}

/** Runs a custom SQL script under pgbench (`-n -f`, no vacuum of pgbench's own tables). */
export async function pgbenchScript(
  url: string,
  options: { name: string; script: string; clients: number; seconds: number },
): Promise<{ row: Row; tps: number; failed: number; averageMs: number; rawTps: number }> {
  const figures = await runPgbench(url, ['-n', '-c', String(options.clients), '-j', '2', '-T', String(options.seconds)], (dir) => {
    const file = join(dir, 'script.sql');
    writeFileSync(file, options.script);
    return ['-f', file];
  });
  const row = pgbenchRow(options.name, options.clients, options.seconds, figures);
  return { row, tps: round(figures.tps, 1), failed: figures.failed, averageMs: figures.averageMs, rawTps: figures.tps };
}
