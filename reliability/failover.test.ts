/**
 * Failover: a primary of the test's own with a synchronous standby (synchronous_commit on),
 * two API server processes behind a balancer whose DATABASE_URL names both servers with
 * target_session_attrs=read-write. Allocations (each with its Idempotency-Key) and usage
 * batches (each event with its id) run through them; the primary's postmaster is SIGKILLed,
 * the standby is promoted, and the load goes on: a client whose request is refused or cut
 * sends it again, same key, same event ids, until it is answered (failover-run.ts, which the
 * bench's scale-out suite runs too). At the end every allocation and event answered 2xx is in
 * the new primary's ledger, each key and each event id is charged once, and `main.ts
 * reconcile` (npm run db:reconcile) finds the books whole. It reports how long writes were
 * refused.
 */
import { afterAll, expect, test } from 'vitest';
import { clusterSkipReason, startReplicaCluster, type ReplicaCluster } from '../apps/server/src/test/replica-cluster.ts';
import { runFailover } from './failover-run.ts';
import { killServers, writeResults } from './harness.ts';

const skip = clusterSkipReason();
let cluster: ReplicaCluster | undefined;

afterAll(async () => {
  await killServers();
  await cluster?.stop();
});

test.skipIf(skip !== null)(
  `SIGKILLed primary, standby promoted: nothing answered 2xx is lost, nothing is charged twice${skip ? ` (skipped: ${skip})` : ''}`,
  async () => {
    cluster = await startReplicaCluster();
    await cluster.query('primary', 'create database console');
    await cluster.startReplica();
    await cluster.makeSynchronous('on');
    const { figures, requests, held, lostAllocationKeys, lostEventIds, reconciled, allocationsAfterPromotion } = await runFailover(
      cluster,
      'console',
    );
    console.log('failover figures', JSON.stringify(figures, null, 2));
    writeResults('failover', figures);

    expect(requests.filter((r) => r.acknowledgedAt === undefined).map((r) => r.key)).toEqual([]);
    expect(lostAllocationKeys).toEqual([]);
    expect(lostEventIds).toEqual([]);
    expect(figures.keysChargedTwice).toBe(0);
    expect(figures.eventsChargedTwice).toBe(0);
    // Every answered allocation moved credits once: one allocation_sent entry per key.
    expect(requests.filter((r) => r.kind === 'allocation' && held.allocationsPerKey.get(r.key) !== 1).map((r) => r.key)).toEqual([]);
    expect(held.books.map((b) => b.drop)).toEqual(held.books.map((b) => b.charged));
    expect(reconciled.report.ok, JSON.stringify(reconciled.report).slice(0, 1000)).toBe(true);
    expect(reconciled.code).toBe(0);
    // The kill was felt (writes were refused), and writes came back once the standby was promoted.
    expect(figures.refusedTries).toBeGreaterThan(0);
    // Both API processes served (the balancer gave each connections).
    expect(figures.balancerConnectionsPerProcess.every((n) => n > 0)).toBe(true);
    expect(allocationsAfterPromotion).toBeGreaterThan(0);
  },
  120_000,
);
