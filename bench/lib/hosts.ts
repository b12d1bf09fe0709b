/**
 * API hosts (reliability/hosts.ts: `main.ts serve` on loopback addresses of their own) as the
 * bench's HTTP loads see them: one URL (a balancer in front of them, or one host) whose CPU is
 * the sum of the hosts' processes, read from /proc. The in-process probes of the forked bench
 * server (profiling, statement capture, SQL through its pool) do not exist here.
 */
import { cpuTicks, TICKS_PER_SECOND } from '../../support/proc.ts';
import type { BenchServer } from './server.ts';

const cpuMicrosOf = (pid: number) => (cpuTicks(pid) / TICKS_PER_SECOND) * 1_000_000;

const absent = (what: string) => () => Promise.reject(new Error(`${what} needs the forked bench server (bench/lib/server.ts)`));

/**
 * `url` served by the processes `pids`. `databaseUrl` is the database measure() waits on to
 * settle between the warm-up and the run; null when writes run beside the load on purpose
 * (the database is then never idle, and there is nothing to wait for).
 */
export function hostsServer(options: { url: string; pids: number[]; database: string; databaseUrl: string | null }): BenchServer {
  return {
    url: options.url,
    processes: options.pids.length,
    database: options.database,
    databaseUrl: options.databaseUrl,
    cpuMicros: async () => options.pids.reduce((total, pid) => total + cpuMicrosOf(pid), 0),
    profileStart: absent('profiling'),
    profileStop: absent('profiling'),
    captureStart: absent('statement capture'),
    captureStop: absent('statement capture'),
    sql: absent('sql()'),
  };
}
