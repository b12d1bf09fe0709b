/**
 * Issue 44, measured side by side: writes through two API hosts against one, reads from the
 * standby against the primary while writes run, the standby's lag at those loads, what the
 * hosts' /metrics said meanwhile, and a failover's refused-write seconds with nothing
 * acknowledged lost. The cluster, hosts and data are scale-out-setup.ts's; the tables and
 * notes scale-out-report.ts's; the failover reliability/failover-run.ts's.
 */
import { clusterSkipReason, startReplicaCluster, type ReplicaCluster } from '../../apps/server/src/test/replica-cluster.ts';
import { startBalancer, type Balancer } from '../../reliability/balancer.ts';
import { runFailover } from '../../reliability/failover-run.ts';
import type { Host } from '../../reliability/hosts.ts';
import { hostsServer } from '../lib/hosts.ts';
import { undoOnInterrupt } from '../lib/interrupt.ts';
import { HTTP_COLUMNS, measure, round } from '../lib/http.ts';
import { mergeMetrics, watchMetrics } from '../lib/metrics-watch.ts';
import { watchLag } from '../lib/replica-lag.ts';
import { step } from '../lib/sql.ts';
import type { Row, Suite, SuiteContext, SuiteOutcome } from '../lib/types.ts';
import { startWrites } from '../lib/write-load.ts';
import { outcome } from './scale-out-report.ts';
import { fill, METRICS_TOKEN, pair, startHosts, TREE, type Data } from './scale-out-setup.ts';
import { AGENT, BATCH, BATCH_CONNECTIONS, halves, measureBatches } from './usage.ts';

const ALLOCATION_CONNECTIONS = 16;
const READ_CONNECTIONS = 16;
/** The writes beside the reads: allocation clients, and usage runtimes sending batches of BESIDE_BATCH events. */
const BESIDE = { allocations: 4, batches: 1 };
const BESIDE_BATCH = 100;
const READS = [
  { key: 'dashboard', name: "GET /api/dashboard (the house's)", path: '/api/dashboard', route: '/api/dashboard' },
  {
    key: 'list',
    name: `GET /api/organizations?view=descendants (first page of 50 of ${(TREE.superAgencies + TREE.agencies + TREE.tenants).toLocaleString('en-US')})`,
    path: '/api/organizations?view=descendants',
    route: '/api/organizations',
  },
];

export const scaleOut: Suite = {
  name: 'scale-out',
  title: 'Several API hosts, reads from the replica, replica lag and failover',
  about:
    "PostgreSQL 15 only, on a primary and a hot standby of the suite's own (`initdb`, then `pg_basebackup -R`; Debian's " +
    '`/usr/lib/postgresql/15/bin`, `fsync=off`, synchronous replication with `synchronous_commit = on` as `docs/deploy.md` ' +
    'sets it up), with two API hosts (`main.ts serve`, each on a loopback address of its own, 127.0.0.2 and 127.0.0.3, as in ' +
    '`reliability/multi-host.test.ts`) behind the round-robin balancer of `reliability/balancer.ts`. Host 0 has ' +
    '`DATABASE_READ_URL` naming the standby, host 1 reads the primary. Data: 10 super agencies, 100 agencies, 1,000 metered ' +
    'tenants, generated in SQL and funded through the API. **Writes**: allocations (many pairs: each of the 10 super ' +
    'agencies to its 10 agencies, 16 connections, each its own Idempotency-Key) and usage batches of 1,000 events (8 ' +
    'connections) through the balancer in front of host 0 alone and in front of both; **ratio** is two hosts ÷ one ' +
    'host. **Reads while writes run**: the dashboard and the descendants list at 16 connections, on host 0 (the replica) ' +
    'and on host 1 (the primary), while 4 allocation clients and 1 usage runtime (batches of 100) write through both ' +
    'hosts; **ratio** is replica ÷ primary, and each row says the writes that ran beside it. Each pair is measured in ' +
    'halves, in the order A B B A, so that what the database has become by the later runs weighs on both alike. **Replica lag** is read from ' +
    "the primary's `pg_stat_replication` every 200 ms during each load (WAL bytes not replayed, and `replay_lag`). " +
    '**/metrics** of both hosts (bearer `METRICS_TOKEN`) is scraped every second during each load; its table gives what ' +
    "the scrapes said, and one scrape's text per load is kept in the results file. **Failover** is " +
    '`reliability/failover-run.ts` (as `npm run test:reliability` runs it) on a database of its own in the same cluster: ' +
    'two API processes with the two-server `DATABASE_URL`, 6 allocation clients and 3 usage runtimes retrying refused ' +
    "requests; the primary's postmaster is SIGKILLed after 3 s of load, the standby promoted 1 s later; refused-write " +
    'seconds, and acknowledged writes lost (must be 0), charged twice and `db:reconcile` on the promoted standby. The ' +
    'suite, the hosts, both PostgreSQL servers and the load share the 2 cores.',
  columns: [
    { key: 'name', label: 'load', format: 'text' },
    { key: 'target', label: 'served by', format: 'text' },
    ...HTTP_COLUMNS.slice(1, 8),
    { key: 'eventsPerSecond', label: 'events/s', format: 'fixed1' },
    ...HTTP_COLUMNS.slice(8),
    { key: 'beside', label: 'writes beside (per s)', format: 'text' },
    { key: 'ratio', label: 'ratio', format: 'fixed2' },
  ],
  async run(context) {
    if (!context.databaseUrl) return { status: 'skipped', reason: 'needs PostgreSQL (set DATABASE_URL): the suite builds its own cluster' };
    const why = clusterSkipReason();
    if (why) return { status: 'skipped', reason: `the primary and standby cannot be built here: ${why}` };
    const cluster = await startReplicaCluster();
    const cleanup: (() => Promise<unknown>)[] = [];
    // Interrupted, run.ts kills the hosts (supervised children) and then this removes the cluster.
    return undoOnInterrupt(
      () => cluster.stop(),
      async () => {
        try {
          await cluster.query('primary', 'create database console');
          await cluster.query('primary', 'create database failover');
          await cluster.startReplica();
          // As docs/deploy.md sets up the standby: the primary keeps the rows its queries still read.
          await cluster.query('replica', 'alter system set hot_standby_feedback = on');
          await cluster.query('replica', 'select pg_reload_conf()');
          await cluster.makeSynchronous('on');
          return await measureAll(context, cluster, cleanup);
        } finally {
          for (const undo of cleanup.reverse()) await undo().catch(() => {});
          await cluster.stop();
        }
      },
    );
  },
};

async function measureAll(context: SuiteContext, cluster: ReplicaCluster, cleanup: (() => Promise<unknown>)[]): Promise<SuiteOutcome> {
  const times: Record<string, number> = {};
  const seconds = context.durationSeconds ?? 8;
  const runId = Date.now().toString(36);
  const hosts = await step(times, 'two API hosts', context.log, () => startHosts(cluster));
  cleanup.push(() => Promise.all(hosts.map((h) => h.stop())));
  const balancer = async (targets: Host[]) => {
    const b = await startBalancer(targets.map((h) => ({ host: h.address, port: h.port })));
    cleanup.push(() => b.close());
    return b;
  };
  const [first, second, both] = [await balancer([hosts[0]!]), await balancer([hosts[1]!]), await balancer(hosts)];
  const primaryUrl = cluster.url('primary', 'console');
  const serverOf = (b: Balancer, serving: Host[], label: string, settle = true) =>
    hostsServer({ url: b.url, pids: serving.map((h) => h.pid), database: label, databaseUrl: settle ? primaryUrl : null });
  const data = await fill(cluster, serverOf(first, [hosts[0]!], ''), times, context.log);
  const lag = await watchLag(cluster.url('primary', 'postgres'));
  cleanup.push(() => lag.stop());
  const excerpts: Record<string, string> = {};
  const metricsRows: Row[] = [];
  const hostUrls = hosts.map((h) => h.url);

  /**
   * Runs one load with the lag filed under its name and /metrics scraped around it. Each load
   * starts with the standby caught up (what the one before left unreplayed is not its lag), and
   * how long the standby took to replay what the load wrote is timed after it.
   */
  const watched = async (name: string, route: string, method: string, fn: () => Promise<Row>) => {
    context.log(name);
    await caughtUp(cluster);
    lag.during(name);
    try {
      const { result, row, excerpt } = await watchMetrics(hostUrls, METRICS_TOKEN, { name, route, method }, fn);
      // A load measured in two halves is one row, and keeps its first half's excerpt.
      const earlier = metricsRows.findIndex((r) => r.name === name);
      if (earlier === -1) metricsRows.push(row);
      else metricsRows[earlier] = mergeMetrics(metricsRows[earlier]!, row);
      excerpts[name] ??= excerpt;
      return result;
    } finally {
      lag.during(null);
      const ended = performance.now();
      await caughtUp(cluster);
      lag.caughtUp(name, performance.now() - ended);
    }
  };

  const rows: Row[] = [];
  const [oneHost, twoHosts] = [
    { label: '1 host', balancer: first, serving: [hosts[0]!] },
    { label: '2 hosts', balancer: both, serving: hosts },
  ];
  const half = Math.max(1, Math.round(seconds / 2));
  const [allocOne, allocTwo] = await abba(oneHost, twoHosts, (target, h) =>
    watched(`allocations, many pairs, ${target.label}`, '/api/credits/allocations', 'POST', () =>
      measure(serverOf(target.balancer, target.serving, data.version), {
        name: `POST /api/credits/allocations (${TREE.superAgencies} parents × 10 children)`,
        method: 'POST',
        path: '/api/credits/allocations',
        connections: ALLOCATION_CONNECTIONS,
        durationSeconds: half,
        rotate: (n) => {
          const { parent, child } = pair(data.parents, n);
          return {
            headers: { authorization: `Bearer ${parent.token}`, 'idempotency-key': `bench-${runId}-${target.label}-${h}-${n}` },
            body: { from_org_id: parent.orgId, to_org_id: child, amount: '1.00', notes: `bench ${n}` },
          };
        },
      }).then((row) => ({ ...row, target: target.label })),
    ),
  );
  const [batchOne, batchTwo] = await abba(oneHost, twoHosts, (target, h) =>
    watched(`usage batches, ${target.label}`, '/api/v1/usage-events', 'POST', () =>
      measureBatches(serverOf(target.balancer, target.serving, data.version), {
        name: `POST /api/v1/usage-events (${BATCH.toLocaleString('en-US')} events over ${data.tenants.length.toLocaleString('en-US')} tenants, ${BATCH_CONNECTIONS} connections)`,
        bearer: { authorization: `Bearer ${data.usageKey}` },
        idPrefix: `scale-${runId}-${target.label.replace(' ', '')}-${h}`,
        orgs: data.tenants,
        seconds: half,
      }).then((row) => ({ ...row, target: target.label })),
    ),
  );
  rows.push(
    { ...allocOne, eventsPerSecond: null, ratio: 1 },
    { ...allocTwo, eventsPerSecond: null, ratio: round(Number(allocTwo.rps) / Number(allocOne.rps), 2) },
    { ...batchOne, ratio: 1 },
    { ...batchTwo, ratio: round(Number(batchTwo.rps) / Number(batchOne.rps), 2) },
  );

  rows.push(...(await readsBesideWrites(context, data, { replica: first, primary: second, both }, hosts, serverOf, watched, runId, half)));
  await lag.stop();
  for (const h of hosts) await h.stop();

  context.log('failover: SIGKILL the primary under allocations and usage batches through two API processes, promote the standby');
  const failover = await step(times, 'failover run', context.log, () => runFailover(cluster, 'failover'));
  return outcome(rows, lag, metricsRows, excerpts, failover, times, hosts);
}

/** Resolves once the standby has replayed all the primary has written so far; fails after a minute (replay stuck). */
async function caughtUp(cluster: ReplicaCluster): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      cluster.catchUp(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('the standby did not catch up with the primary within 60 s')), 60_000);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Two targets measured in halves, A B B A, and each one's halves made one row: what the
 * database has become by the later runs (rows written, checkpoints) weighs on both alike.
 */
async function abba<T>(a: T, b: T, run: (target: T, half: number) => Promise<Row>): Promise<[Row, Row]> {
  const a1 = await run(a, 0);
  const b1 = await run(b, 0);
  const b2 = await run(b, 1);
  const a2 = await run(a, 1);
  return [halves(a1, a2), halves(b1, b2)];
}

type ServerOf = (b: Balancer, serving: Host[], label: string, settle?: boolean) => ReturnType<typeof hostsServer>;
type Watched = (name: string, route: string, method: string, fn: () => Promise<Row>) => Promise<Row>;

/** Each read on host 0 (the replica) then host 1 (the primary), with the same writes running through both hosts. */
async function readsBesideWrites(
  context: SuiteContext,
  data: Data,
  balancers: { replica: Balancer; primary: Balancer; both: Balancer },
  hosts: Host[],
  serverOf: ServerOf,
  watched: Watched,
  runId: string,
  seconds: number,
): Promise<Row[]> {
  const writes = startWrites(balancers.both.url, runId, {
    allocations: {
      clients: BESIDE.allocations,
      pick: (n) => {
        const { parent, child } = pair(data.parents, n);
        return { token: parent.token, from: parent.orgId, to: child };
      },
    },
    batches: { clients: BESIDE.batches, bearer: data.usageKey, events: BESIDE_BATCH, orgs: data.tenants, agent: AGENT },
  });
  const rows: Row[] = [];
  interface ReadTarget {
    label: 'replica' | 'primary';
    balancer: Balancer;
    host: Host;
    /** The writes answered beside this target's halves, and how long those lasted. */
    beside: { seconds: number; allocations: number; events: number; failed: number };
  }
  const fresh = () => ({ seconds: 0, allocations: 0, events: 0, failed: 0 });
  const targets: [ReadTarget, ReadTarget] = [
    { label: 'replica', balancer: balancers.replica, host: hosts[0]!, beside: fresh() },
    { label: 'primary', balancer: balancers.primary, host: hosts[1]!, beside: fresh() },
  ];
  try {
    for (const read of READS) {
      for (const t of targets) t.beside = fresh();
      const [replica, primary] = await abba(targets[0], targets[1], async (target) => {
        // The writes keep the database busy on purpose: there is no quiet moment to settle into.
        const server = serverOf(target.balancer, [target.host], `${data.version}, ${target.label}`, false);
        const before = { at: performance.now(), ...writes.counts() };
        const row = await watched(`${read.key} reads from the ${target.label}, writes beside`, read.route, 'GET', () =>
          measure(server, {
            name: read.name,
            method: 'GET',
            path: read.path,
            headers: { authorization: `Bearer ${data.houseToken}` },
            connections: READ_CONNECTIONS,
            durationSeconds: seconds,
          }),
        );
        const after = writes.counts();
        target.beside.seconds += (performance.now() - before.at) / 1000;
        target.beside.allocations += after.allocations - before.allocations;
        target.beside.events += after.events - before.events;
        target.beside.failed += after.failed - before.failed;
        return row;
      });
      const beside = ({ beside: b }: ReadTarget) =>
        `${round(b.allocations / b.seconds, 1)} allocations, ${round(b.events / b.seconds, 1)} events` +
        (b.failed ? `, ${b.failed} failed` : '');
      rows.push(
        {
          ...replica,
          target: 'host 0, replica',
          eventsPerSecond: null,
          beside: beside(targets[0]),
          ratio: round(Number(replica.rps) / Number(primary.rps), 2),
        },
        { ...primary, target: 'host 1, primary', eventsPerSecond: null, beside: beside(targets[1]), ratio: 1 },
      );
      context.log(`  ${read.key}: replica ${replica.rps} req/s, primary ${primary.rps} req/s`);
    }
  } finally {
    await writes.stop();
  }
  return rows;
}
