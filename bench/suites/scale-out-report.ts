/**
 * The scale-out suite's outcome: its tables (replica lag, what /metrics said, the failover) and
 * notes from what the loads measured. A failover that lost or doubled an acknowledged write is
 * a defect, not a figure: the run fails with the figures in its message.
 */
import type { FailoverRun } from '../../reliability/failover-run.ts';
import type { Host } from '../../reliability/hosts.ts';
import { METRICS_COLUMNS } from '../lib/metrics-watch.ts';
import { LAG_COLUMNS, type LagWatch } from '../lib/replica-lag.ts';
import type { Column, Row, SuiteOutcome, Table } from '../lib/types.ts';

const FAILOVER_COLUMNS: Column[] = [
  { key: 'name', label: 'failover', format: 'text' },
  { key: 'writesRefusedSeconds', label: 'writes refused (s)', format: 'fixed1' },
  { key: 'killToWritesBackSeconds', label: 'kill to writes back (s)', format: 'fixed1' },
  { key: 'promoteAskedToWritesBackSeconds', label: 'promote to writes back (s)', format: 'fixed1' },
  { key: 'allocationsAnswered', label: 'allocations answered', format: 'int' },
  { key: 'batchesAnswered', label: 'batches answered', format: 'int' },
  { key: 'requestsRetried', label: 'requests retried', format: 'int' },
  { key: 'lost', label: 'acknowledged writes lost', format: 'int' },
  { key: 'chargedTwice', label: 'charged twice', format: 'int' },
  { key: 'reconcile', label: 'db:reconcile', format: 'text' },
];

export function outcome(
  rows: Row[],
  lag: LagWatch,
  metricsRows: Row[],
  excerpts: Record<string, string>,
  failover: FailoverRun,
  times: Record<string, number>,
  hosts: Host[],
): SuiteOutcome {
  const f = failover.figures;
  const lost = f.lostAllocations + f.lostEvents;
  const chargedTwice = f.keysChargedTwice + f.eventsChargedTwice;
  const unanswered = failover.requests.filter((r) => r.acknowledgedAt === undefined).length;
  // What failover must never do is a defect, not a figure: the run fails with the figures in its message.
  if (lost || chargedTwice || !f.reconcileOk || unanswered) {
    throw new Error(`failover lost or doubled writes: ${JSON.stringify({ ...f, unanswered })}`);
  }
  const lagFailure = lag.failure();
  const lagRows = lag.rows();
  const worst = lagRows.reduce<Row | null>((w, r) => (w === null || Number(r.bytesMax) > Number(w.bytesMax) ? r : w), null);
  const tables: Table[] = [
    { title: 'Replica lag during each load (primary’s pg_stat_replication, every 200 ms)', columns: LAG_COLUMNS, rows: lagRows },
    { title: '/metrics of both hosts, scraped every second during each load', columns: METRICS_COLUMNS, rows: metricsRows },
    {
      title: 'Failover: primary SIGKILLed under load, standby promoted 1 s later',
      columns: FAILOVER_COLUMNS,
      rows: [
        {
          name: `2 API processes, ${f.allocationClients} allocation clients, ${f.usageClients} usage runtimes (${f.eventsPerBatch} events a batch)`,
          writesRefusedSeconds: f.writesRefusedSeconds,
          killToWritesBackSeconds: f.killToWritesBackSeconds,
          promoteAskedToWritesBackSeconds: f.promoteAskedToWritesBackSeconds,
          allocationsAnswered: f.allocationsAnswered,
          batchesAnswered: f.batchesAnswered,
          requestsRetried: f.requestsRetried,
          lost,
          chargedTwice,
          reconcile: f.reconcileOk ? 'ok' : 'FAILED',
        },
      ],
    },
  ];
  return {
    status: 'ok',
    rows,
    tables,
    notes: [
      `Hosts: ${hosts.map((h, n) => `host ${n} on ${h.address}${n === 0 ? ' (reads from the standby)' : ' (reads from the primary)'}`).join(', ')}; ` +
        'the balancer, autocannon and the writers run in the bench process.',
      'One machine: the hosts, both PostgreSQL servers, the balancer and the load generator share the same 2 cores, so two ' +
        'hosts ÷ one host measures what two processes behind the balancer cost or save on the same CPUs, not what hosts on ' +
        'machines of their own would give; likewise the standby answers reads on the CPUs the primary uses.',
      'From /metrics: route requests counts every answer on the load’s route during the load (the probes and 2 s warm-ups ' +
        'of both halves included); pool in use and waiting are the primary’s pool (`console_db_pool_*`), the highest of ' +
        'any host at any scrape (host 0’s reads use the replica’s own pool, which these gauges do not count); replica lag ' +
        'is host 0’s `console_db_replica_lag_*` at its scrapes.',
      `Failover: first refusal ${f.firstRefusalAfterKillSeconds} s after the kill, last ${f.lastRefusalAfterKillSeconds} s; ` +
        `${f.refusedTries} refused tries; ${f.batchesFoundAlreadyHeldOnRetry} batches found already held on their retry; ` +
        `balancer connections per API process ${f.balancerConnectionsPerProcess.join(', ')}.`,
      ...(worst
        ? [
            `The standby fell furthest behind during "${worst.name}": up to ${Math.round(Number(worst.bytesMax) / 1024).toLocaleString('en-US')} KiB ` +
              `of WAL not replayed and ${worst.replayLagMaxMs} ms of replay lag; it had replayed everything ${worst.caughtUpMs} ms after that load ended.`,
          ]
        : []),
      ...(lagFailure ? [`Lag sampling stopped early: ${lagFailure}`] : []),
      `Setup: ${Object.entries(times)
        .map(([k, v]) => `${k} ${v} s`)
        .join(', ')}.`,
    ],
    details: { metricsExcerpts: excerpts, failover: f, setupSeconds: times },
  };
}
