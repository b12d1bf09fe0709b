import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { round } from './http.ts';
import type { Row } from './types.ts';

const run = promisify(execFile);

/**
 * Runs a custom SQL script under pgbench (`-n -f`, no vacuum of pgbench's own tables) and
 * returns its figures as a table row, with p50/p99 from the per-transaction log.
 */
export async function pgbenchScript(
  url: string,
  options: { name: string; script: string; clients: number; seconds: number },
): Promise<{ row: Row; tps: number; failed: number; averageMs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-pgbench-'));
  try {
    const file = join(dir, 'script.sql');
    writeFileSync(file, options.script);
    const { stdout } = await run(
      'pgbench',
      ['-n', '-f', file, '-c', String(options.clients), '-j', '2', '-T', String(options.seconds), '-l', `--log-prefix=${join(dir, 'tx')}`, url],
      { maxBuffer: 16 << 20 },
    );
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
    const row: Row = {
      name: options.name,
      database: null,
      connections: options.clients,
      durationSeconds: options.seconds,
      requests: transactions,
      rps: round(tps, 1),
      p50Ms: at(0.5),
      p99Ms: at(0.99),
      errors: failed,
      non2xx: null,
      cpuMsPerRequest: null,
      loadAverage: round(loadavg()[0]!, 1),
    };
    return { row, tps: round(tps, 1), failed, averageMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
