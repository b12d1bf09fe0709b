/**
 * What the scale-out suite runs on: a primary of its own with a synchronous hot standby
 * (apps/server/src/test/replica-cluster.ts), two API hosts over it on loopback addresses of their
 * own (reliability/hosts.ts), host 0 reading from the standby (DATABASE_READ_URL) and host 1
 * from the primary, both serving /metrics behind a token; and the data the loads need,
 * generated in SQL and funded through the API.
 */
import { randomBytes } from 'node:crypto';
import { generateKey } from '../../apps/server/src/lib/api-key.ts';
import { hashPassword } from '../../apps/server/src/lib/secrets.ts';
import type { ReplicaCluster } from '../../apps/server/src/test/replica-cluster.ts';
import { ADMIN, freePort } from '../../reliability/harness.ts';
import { startHost, type Host } from '../../reliability/hosts.ts';
import { loopback } from '../../reliability/network.ts';
import { withClient } from '../../support/postgres.ts';
import { call, signIn } from '../lib/http.ts';
import type { BenchServer } from '../lib/server.ts';
import { generateTree, prepareSession, step, superAgencyAdmins, type TreeSpec } from '../lib/sql.ts';
import { meter } from './usage.ts';

/** 10 super agencies (the allocations' senders), 100 agencies (their receivers), 1,000 tenants (the metered ones). */
export const TREE: TreeSpec = { superAgencies: 10, agencies: 100, tenants: 1_000 };
const SA_FUNDS = '1000000.00';
const SA_PASSWORD = 'bench super agency admin password';
export const METRICS_TOKEN = randomBytes(24).toString('hex');

export interface Parent {
  orgId: string;
  token: string;
  children: string[];
}

/** What the loads are given. */
export type Data = Awaited<ReturnType<typeof fill>>;

/** Starts the two hosts on the cluster's `console` database (host 0 first: it migrates and makes the house admin). */
export async function startHosts(cluster: ReplicaCluster): Promise<Host[]> {
  const network = loopback(2);
  const env = {
    DATABASE_URL: cluster.url('primary', 'console'),
    JWT_SECRET: randomBytes(32).toString('hex'),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    // The setup signs in far more often than the production limits allow.
    RATE_LIMIT_FACTOR: '100000',
    METRICS_TOKEN,
    LOG_LEVEL: 'warn',
  };
  const hosts: Host[] = [];
  try {
    for (const [n, address] of network.addresses.entries()) {
      const read = n === 0 ? { DATABASE_READ_URL: cluster.url('replica', 'console') } : {};
      hosts.push(await startHost({ address, port: await freePort(), env: { ...env, ...read } }));
    }
  } catch (error) {
    await Promise.all(hosts.map((h) => h.stop()));
    throw error;
  }
  return hosts;
}

/** The tree, the metered tenants and the super agencies' admins in SQL; then their funds through the API. */
export async function fill(cluster: ReplicaCluster, server: BenchServer, times: Record<string, number>, log: (m: string) => void) {
  const key = generateKey();
  const passwordHash = await hashPassword(SA_PASSWORD);
  const setup = await withClient(cluster.url('primary', 'console'), async (client) => {
    await prepareSession(client);
    const house = await generateTree(client, TREE, times, log);
    await step(times, 'agent, 1,000 activations, funding and an API key', log, () => meter(client, house.id, key));
    const admins = await superAgencyAdmins(client, TREE.superAgencies, passwordHash);
    const agencies = await client.query<{ id: string; parent: string }>(
      `select id, parent_org_id as parent from organizations where org_type = 'agency' order by name, id`,
    );
    const tenants = await client.query<{ id: string }>(`select organization_id as id from bench_usage_orgs order by n`);
    const version = await client.query<{ v: string }>(`select current_setting('server_version') as v`);
    await client.query('vacuum analyze');
    return { house, admins, agencies: agencies.rows, tenants: tenants.rows.map((r) => r.id), version: version.rows[0]!.v };
  });
  const houseToken = await signIn(server, ADMIN);
  await step(times, `funding through the API (1 adjustment, ${TREE.superAgencies} allocations)`, log, async () => {
    const total = (Number(SA_FUNDS) * TREE.superAgencies).toFixed(2);
    await call(server, 'POST', '/api/credits/adjustments', houseToken, { direction: 'increase', amount: total, reason: 'bench funding' });
    for (const admin of setup.admins) {
      await call(server, 'POST', '/api/credits/allocations', houseToken, {
        from_org_id: setup.house.id,
        to_org_id: admin.orgId,
        amount: SA_FUNDS,
        notes: 'bench funding',
      });
    }
  });
  const parents: Parent[] = await Promise.all(
    setup.admins.map(async (admin) => ({
      orgId: admin.orgId,
      token: await signIn(server, { email: admin.email, password: SA_PASSWORD }),
      children: setup.agencies.filter((a) => a.parent === admin.orgId).map((a) => a.id),
    })),
  );
  return {
    version: `PostgreSQL ${setup.version.split(' ')[0]}`,
    houseToken,
    parents,
    tenants: setup.tenants,
    usageKey: key.key,
  };
}

/** Allocation n of the "many pairs" shape: parent n % 10 to one of its 10 agencies in turn (100 pairs). */
export function pair(parents: Parent[], n: number): { parent: Parent; child: string } {
  const parent = parents[n % parents.length]!;
  return { parent, child: parent.children[Math.floor(n / parents.length) % parent.children.length]! };
}
