/**
 * Several API hosts: two real server processes, each in a network namespace of its own where
 * the machine allows it (root), else each bound to its own loopback address (127.0.0.2 and
 * 127.0.0.3), as two machines would be, behind the round-robin balancer, over one PostgreSQL
 * database, at the production rate limits. Through the balancer:
 * wrong passwords split between the hosts are refused at the one shared limit; an
 * allocation retried with its Idempotency-Key on the other host moves credits once; while
 * both hosts run their background loops, every webhook delivery reaches its receiver once
 * and every automatic top-up is made once; and the daily usage-partition maintenance and
 * the scheduled backup, each looked at by both hosts, are each done once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { listBackups } from '../apps/server/src/db/backup-schedule.ts';
import { startBalancer, type Balancer } from './balancer.ts';
import {
  ADMIN,
  createDatabase,
  freePort,
  killServers,
  postgresServerUrl,
  sleep,
  withClient,
  writeResults,
  type FreshDatabase,
} from './harness.ts';
import { startHost, type Host } from './hosts.ts';
import { makeNetwork, type Network } from './network.ts';

const EVENTS = 200;
const TOP_UPS = 30;

let database: FreshDatabase;
let network: Network;
/** Each host's BACKUP_DIR is a folder of its own in here. */
const backups = mkdtempSync(join(tmpdir(), 'multi-host-backups-'));
let hosts: Host[] = [];
let balancer: Balancer;
/** Each webhook delivery's id, as many times as it was received. */
const received: string[] = [];
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received.push(String(req.headers['webhook-id'] ?? ''));
    res.end('ok');
  });
});

interface Answer {
  status: number;
  body: any;
  /** The index of the host the balancer gave the connection to. */
  host: number;
}

/**
 * One request through the balancer on a connection of its own (no keep-alive), so that
 * consecutive requests go to the hosts in turn; answers which host served it.
 */
async function call(method: string, path: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const before = balancer.connections();
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const answer = await new Promise<Omit<Answer, 'host'>>((resolve, reject) => {
    const req = request(
      `${balancer.url}${path}`,
      {
        method,
        agent: false,
        headers: {
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...options.headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body: text.startsWith('{') ? JSON.parse(text) : text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
  const after = balancer.connections();
  return { ...answer, host: after.findIndex((n, i) => n > before[i]!) };
}

async function must(method: string, path: string, options: Parameters<typeof call>[2] = {}) {
  const answer = await call(method, path, options);
  if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

async function until(what: string, check: () => Promise<boolean>, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms / 1000} s: ${what}`);
    await sleep(100);
  }
}

beforeAll(async () => {
  database = await createDatabase();
  network = await makeNetwork(2, postgresServerUrl());
  await new Promise<void>((resolve) => receiver.listen(0, network.outside, resolve));
  const env = {
    DATABASE_URL: network.databaseUrl(database.url),
    JWT_SECRET: randomBytes(32).toString('hex'),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    RATE_LIMIT_FACTOR: '1',
    TRUST_PROXY: '1',
    WEBHOOK_ALLOWED_HOSTS: network.outside,
    LOG_LEVEL: 'debug',
  };
  hosts = await Promise.all(
    network.addresses.map(async (address, n) =>
      startHost({
        address,
        port: await freePort(),
        env: { ...env, BACKUP_EVERY: '1h', BACKUP_DIR: join(backups, `host-${n}`) },
        command: (argv) => network.command(n, argv),
      }),
    ),
  );
  balancer = await startBalancer(hosts.map((h) => ({ host: h.address, port: h.port })));
});

afterAll(async () => {
  await balancer?.close();
  await killServers();
  await network?.close();
  receiver.closeAllConnections();
  receiver.close();
  await database?.drop();
  rmSync(backups, { recursive: true, force: true });
});

test('two hosts behind a balancer share limits, idempotency, loops, the daily maintenance and backups', async () => {
  // Each host serves on its own address only.
  for (const [n, host] of hosts.entries()) {
    const other = network.addresses[1 - n]!;
    expect(
      await fetch(`http://${other}:${host.port}/api/health`).then(
        (r) => r.status,
        () => 'refused',
      ),
    ).toBe('refused');
  }

  // Sign-in: 5 attempts per e-mail and client address in a window, counted in PostgreSQL.
  // Wrong passwords from one client alternate between the hosts; the sixth and seventh are
  // refused on each host. (The client's address comes in X-Forwarded-For, as an HTTP
  // balancer sends it, and the hosts trust that one hop: TRUST_PROXY=1.)
  const client = { 'x-forwarded-for': '203.0.113.7' };
  const guesses: Answer[] = [];
  for (let n = 0; n < 7; n++) {
    guesses.push(
      await call('POST', '/api/auth/sign-in', { body: { email: 'guesser@reliability.test', password: `wrong ${n}` }, headers: client }),
    );
  }
  expect(guesses.map((g) => g.status)).toEqual([401, 401, 401, 401, 401, 429, 429]);
  expect(new Set(guesses.slice(0, 5).map((g) => g.host))).toEqual(new Set([0, 1]));
  expect(new Set(guesses.slice(5).map((g) => g.host))).toEqual(new Set([0, 1]));
  // The back-off: wrong passwords for one e-mail from ten addresses, five on each host, make
  // one run of ten failures (the line past which each further attempt waits).
  for (let n = 0; n < 10; n++) {
    const wrong = await call('POST', '/api/auth/sign-in', {
      body: { email: 'spread@reliability.test', password: `wrong ${n}` },
      headers: { 'x-forwarded-for': `198.51.100.${n + 1}` },
    });
    expect(wrong.status).toBe(401);
  }
  const run = await withClient(database.url, (c) =>
    c.query<{ count: number }>(`select count from rate_limits where key = 'sign-in:account:spread@reliability.test'`),
  );
  expect(run.rows[0]!.count).toBe(10);

  const token = (await must('POST', '/api/auth/sign-in', { body: ADMIN })).access_token as string;
  const { organization_id: houseId } = await must('GET', '/api/users/me', { token });
  await must('POST', '/api/credits/adjustments', {
    token,
    body: { direction: 'increase', amount: '100000.00', reason: 'multi-host funding' },
  });

  // Top-up children: each funded with 1000.00 and refilled by 50.00 below 900.00.
  const children = await withClient(database.url, async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `insert into organizations (name, org_type, parent_org_id, parent_org_type)
       select 'Multi-host child ' || n, 'super_agency', $1, 'house' from generate_series(1, $2::int) n returning id`,
      [houseId, TOP_UPS],
    );
    const ids = rows.map((r) => r.id);
    await client.query(`insert into organization_billing_settings (organization_id) select unnest($1::uuid[])`, [ids]);
    for (const id of ids) {
      await client.query(
        `select 1 from ledger_post(gen_random_uuid(), null, true, array[$1, $2]::uuid[], array[-1000.00, 1000.00]::numeric[],
           array['allocation_sent', 'allocation_received'], array['{}'::jsonb, '{}'::jsonb])`,
        [houseId, id],
      );
    }
    await client.query(
      `update organization_billing_settings set top_up_below = 900.00, top_up_amount = 50.00, top_up_monthly_max = 1000000.00
       where organization_id = any($1::uuid[])`,
      [ids],
    );
    return ids;
  });

  // Idempotency: the same allocation and key, sent again on a new connection, reaches the other host.
  const key = randomUUID();
  const allocation = { from_org_id: houseId, to_org_id: children[0], amount: '10.00', notes: 'multi-host retry' };
  const first = await call('POST', '/api/credits/allocations', { token, body: allocation, headers: { 'idempotency-key': key } });
  const retry = await call('POST', '/api/credits/allocations', { token, body: allocation, headers: { 'idempotency-key': key } });
  expect([first.status, retry.status]).toEqual([200, 200]);
  expect(retry.host).not.toBe(first.host);
  expect(retry.body.transaction_id).toBe(first.body.transaction_id);
  const entries = await withClient(database.url, (client) =>
    client.query<{ n: number }>(`select count(*)::int as n from credit_ledger_entries where transaction_group = $1`, [
      first.body.transaction_id,
    ]),
  );
  expect(entries.rows[0]!.n).toBe(2);

  // Webhooks and top-ups, queued at once while both hosts' loops run.
  const webhook = `http://${network.outside}:${(receiver.address() as AddressInfo).port}/hooks`;
  await must('POST', `/api/organizations/${houseId}/webhooks`, {
    token,
    body: { url: webhook, event_types: ['credits.adjusted'], include_subtree: false },
  });
  const eventIds = await withClient(database.url, async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `insert into webhook_events (type, organization_id, data)
       select 'credits.adjusted', $1::uuid, jsonb_build_object('amount', n || '.00', 'balance_after', '0.00', 'notes', null)
       from generate_series(1, $2::int) n returning id`,
      [houseId, EVENTS],
    );
    // Each child spends 150.00 back to the house: its balance crosses below its line, which queues one top-up.
    for (const id of children) {
      await client.query(
        `select 1 from ledger_post(gen_random_uuid(), null, true, array[$1, $2]::uuid[], array[-150.00, 150.00]::numeric[],
           array['allocation_sent', 'allocation_received'], array['{}'::jsonb, '{}'::jsonb])`,
        [id, houseId],
      );
    }
    return rows.map((r) => r.id);
  });
  await until('every webhook delivered and every top-up done', () =>
    withClient(database.url, async (client) => {
      const { rows } = await client.query<{ delivered: number; pending: number }>(
        `select (select count(*)::int from webhook_deliveries where state = 'delivered') as delivered,
                (select count(*)::int from top_up_requests where done_at is null) as pending`,
      );
      return rows[0]!.delivered === EVENTS && rows[0]!.pending === 0;
    }),
  );
  // A moment for a second sending of any delivery, were one to happen.
  await sleep(1_500);
  const counts = new Map<string, number>();
  for (const id of received) counts.set(id, (counts.get(id) ?? 0) + 1);
  expect([...counts.keys()].sort()).toEqual([...eventIds].sort());
  expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);

  const topUps = await withClient(database.url, async (client) => {
    const { rows } = await client.query<{ made: number; automatic: number; balances: string[] }>(
      `select (select count(*)::int from top_up_requests where outcome = 'topped_up') as made,
              (select count(*)::int from credit_ledger_entries where organization_id = any($1::uuid[])
                 and entry_type = 'allocation_received' and metadata->>'automatic' = 'true') as automatic,
              (select array_agg(distinct credit_balance::text order by credit_balance::text) from organization_billing_settings where organization_id = any($1::uuid[])) as balances`,
      [children],
    );
    return rows[0]!;
  });
  expect(topUps).toEqual({ made: TOP_UPS, automatic: TOP_UPS, balances: ['900.00', '910.00'] });

  // The daily maintenance: both hosts looked (the row counts every look of the day's window), one ran it.
  const looks = await withClient(database.url, (client) =>
    client.query<{ count: number }>(`select count from rate_limits where key = 'daily:usage-events-add-months'`),
  );
  const runs = hosts.flatMap((h) => h.logs().filter((l) => l.msg === 'daily chore done' && l.chore === 'usage-events-add-months'));
  const skipped = hosts.flatMap((h) => h.logs().filter((l) => l.msg === 'daily chore already done in this window'));
  expect(looks.rows[0]!.count).toBe(2);
  expect(runs).toHaveLength(1);
  expect(skipped).toHaveLength(1);

  // Scheduled backups: each host found its own folder empty (a backup due), one took it.
  const backupLooks = async () =>
    (
      await withClient(database.url, (client) =>
        client.query<{ count: number }>(`select count from rate_limits where key = 'backup:scheduled'`),
      )
    ).rows[0]?.count ?? 0;
  const taken = () => network.addresses.flatMap((_, n) => listBackups(join(backups, `host-${n}`)));
  await until('both hosts looked and one backup was written', async () => (await backupLooks()) >= 2 && taken().length > 0);
  await sleep(1_000);
  // Each host looks again every minute while its folder has none: more looks, still one backup in the hour.
  expect(taken()).toHaveLength(1);
  expect(await backupLooks()).toBeGreaterThanOrEqual(2);

  writeResults('multi-host', {
    network: network.kind,
    hosts: network.addresses,
    connectionsPerHost: balancer.connections(),
    webhookDeliveries: received.length,
    topUpsMade: topUps.made,
    dailyMaintenance: { looks: looks.rows[0]!.count, runs: runs.length },
    scheduledBackups: { looks: await backupLooks(), taken: taken().length },
  });
});
