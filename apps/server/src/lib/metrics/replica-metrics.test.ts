/**
 * With a streaming replica (DATABASE_READ_URL): readiness says the replica answers, and the
 * scrape carries its lag, which grows while its replay is paused. PostgreSQL only, on a
 * primary and a hot standby of the test's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppOverReplica, type ReplicaApp } from '../../test/replica-app.ts';
import { replicaSkipReason, type ReplicaCluster } from '../../test/replica-cluster.ts';
import { parseExposition, valueOf } from '../../test/prometheus-text.ts';

const skip = replicaSkipReason();
const TOKEN = 'replica-metrics-token-0123456789abcdef';

describe.skipIf(skip !== null)(`metrics and readiness with a read replica${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: ReplicaCluster;
  let baseUrl: string;

  let replica: ReplicaApp;

  beforeAll(async () => {
    replica = await startAppOverReplica({ env: { METRICS_TOKEN: TOKEN } });
    ({ cluster, baseUrl } = replica);
  }, 120_000);

  afterAll(async () => {
    await replica?.stop();
  }, 60_000);

  const scrape = async () => {
    const answer = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(answer.status).toBe(200);
    return parseExposition(await answer.text());
  };

  it('is ready with the replica answering', async () => {
    const answer = await fetch(`${baseUrl}/api/health/ready`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ status: 'ready', database: 'ok', replica: 'ok', migrations: { at_head: true } });
  });

  it("carries the replica's lag, which grows by the primary's writes while the replica's replay is paused", async () => {
    await cluster.query('primary', 'create table lag_probe (n integer)');
    await cluster.catchUp();
    const caughtUp = await scrape();
    expect(valueOf(caughtUp, 'console_db_replica_lag_bytes')).toBeGreaterThanOrEqual(0);
    expect(valueOf(caughtUp, 'console_db_replica_lag_seconds')).toBeGreaterThanOrEqual(0);
    await cluster.pauseReplay();
    try {
      await cluster.query('primary', 'insert into lag_probe select generate_series(1, 1000)');
      const behind = await scrape();
      // A thousand rows are well over 10 kB of WAL the paused replica has not replayed.
      expect(valueOf(behind, 'console_db_replica_lag_bytes')).toBeGreaterThan(10_000);
    } finally {
      await cluster.resumeReplay();
    }
  });
});
