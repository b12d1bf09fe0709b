import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { READ_AFTER_COOKIE, readAfterOf } from '../lib/read-your-writes.ts';
import { buildWorld, PASSWORD } from '../test/fixtures.ts';
import { startAppOverReplica, type ReplicaApp } from '../test/replica-app.ts';
import { replicaSkipReason, type ReplicaCluster } from '../test/replica-cluster.ts';
import { writeAudit } from '../lib/audit.ts';
import type { Database } from './connection.ts';
import { createReadRouting } from './read-pool.ts';

describe('the read-after cookie', () => {
  it('names a WAL position, or nothing', () => {
    expect(readAfterOf(`a=1; ${READ_AFTER_COOKIE}=16/B374D848; b=2`)).toBe('16/B374D848');
    expect(readAfterOf(`${READ_AFTER_COOKIE}=0/0`)).toBe('0/0');
    expect(readAfterOf(`${READ_AFTER_COOKIE}=16/B374D848'); drop table x`)).toBeNull();
    expect(readAfterOf(`${READ_AFTER_COOKIE}=`)).toBeNull();
    expect(readAfterOf('other=16/B374D848')).toBeNull();
    expect(readAfterOf(undefined)).toBeNull();
  });
});

const skip = replicaSkipReason();

/** A primary and a hot standby of its own (pg_basebackup), the API reading from the standby. */
describe.skipIf(skip !== null)(`a streaming replica for reads${skip ? ` (skipped: ${skip})` : ''}`, () => {
  /** How long a read after the person's own write waits for the standby here (the default is 1 s). */
  const WAIT_MS = 300;
  let cluster: ReplicaCluster;
  let database: Database;
  let baseUrl: string;
  let world: Awaited<ReturnType<typeof buildWorld>>;

  let replica: ReplicaApp;

  beforeAll(async () => {
    replica = await startAppOverReplica({
      readWaitMs: WAIT_MS,
      seed: async (db) => {
        world = await buildWorld(db);
      },
    });
    ({ cluster, database, baseUrl } = replica);
  }, 120_000);

  afterAll(async () => {
    await replica?.stop();
  }, 60_000);

  /** One request over HTTP; `readAfter` is the read-after cookie the answer set, if any. */
  async function call(method: string, path: string, options: { token?: string; cookie?: string | null; body?: unknown } = {}) {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.cookie) headers.cookie = options.cookie;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(baseUrl + path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const set = response.headers.getSetCookie().find((c) => c.startsWith(`${READ_AFTER_COOKIE}=`));
    return { status: response.status, body: (await response.json()) as any, readAfter: set ? set.split(';')[0]! : null };
  }

  async function signIn(who: string): Promise<string> {
    const email = world.users[who]!;
    const response = await call('POST', '/api/auth/sign-in', { body: { email, password: PASSWORD } });
    expect(response.status).toBe(200);
    return response.body.access_token as string;
  }

  it('sends the read pool to the standby and the primary pool to the primary', async () => {
    const routing = createReadRouting(database, cluster.url('replica', 'console'), { waitMs: WAIT_MS });
    try {
      const recovery = sql<{
        standby: boolean;
        name: string;
      }>`select pg_is_in_recovery() as standby, current_setting('application_name') as name`;
      expect((await recovery.execute(routing.readDb)).rows[0]).toEqual({ standby: true, name: 'console-read' });
      expect((await recovery.execute(database.db)).rows[0]!.standby).toBe(false);
      // A person whose last write the standby has replayed reads it; one whose write it cannot reach within the bound reads the primary.
      const now = await routing.primaryLsn();
      await cluster.catchUp();
      expect((await routing.scopes.run({ afterLsn: now }, () => recovery.execute(routing.readDb))).rows[0]!.standby).toBe(true);
      const never = await routing.scopes.run({ afterLsn: 'FFFFFFFF/FFFFFFFF' }, () => recovery.execute(routing.readDb));
      expect(never.rows[0]!.standby).toBe(false);
    } finally {
      await routing.close();
    }
  });

  it("shows a person their own write at once, others the standby's state, and decides money on the primary", async () => {
    const house = await signIn('H.admin');
    const superAdmin = await signIn('SA1.admin');
    const funded = await call('POST', '/api/credits/adjustments', {
      token: house,
      body: { direction: 'increase', amount: '1000', reason: 'Opening balance' },
    });
    expect(funded.status).toBe(200);
    expect(funded.readAfter).toMatch(new RegExp(`^${READ_AFTER_COOKIE}=[0-9A-F]+/[0-9A-F]+$`));
    await cluster.catchUp();

    // From here the standby applies nothing the primary writes.
    await cluster.pauseReplay();
    try {
      const allocation = await call('POST', '/api/credits/allocations', {
        token: house,
        body: { from_org_id: world.orgs.H.id, to_org_id: world.orgs.SA1.id, amount: '300' },
      });
      expect(allocation.status).toBe(200);
      expect(allocation.readAfter).not.toBeNull();

      // The writer's list read, at once: the standby cannot have the allocation, so the primary answers.
      const own = await call('GET', `/api/credits/ledger?organization_id=${world.orgs.SA1.id}`, {
        token: house,
        cookie: allocation.readAfter,
      });
      expect(own.status).toBe(200);
      expect(own.body.entries.map((e: { entry_type: string; amount: string }) => [e.entry_type, e.amount])).toEqual([
        ['allocation_received', '300.00'],
      ]);

      // Someone who wrote nothing reads the standby, which has not replayed the allocation yet.
      const other = await call('GET', '/api/credits/ledger', { token: superAdmin });
      expect(other.status).toBe(200);
      expect(other.body.entries).toEqual([]);

      // A money decision reads the primary: the allocation's 300 is there to pass on.
      const onward = await call('POST', '/api/credits/allocations', {
        token: superAdmin,
        body: { from_org_id: world.orgs.SA1.id, to_org_id: world.orgs.A1.id, amount: '100' },
      });
      expect(onward.status).toBe(200);
      expect(onward.body).toMatchObject({ from_balance: '200.00', to_balance: '100.00' });

      // Once the standby replays again, the same person's read waits for it and sees both movements.
      await cluster.resumeReplay();
      const later = await call('GET', '/api/credits/ledger', { token: superAdmin, cookie: onward.readAfter });
      expect(later.body.entries.map((e: { entry_type: string }) => e.entry_type)).toEqual(['allocation_sent', 'allocation_received']);
      expect(later.body.credit_balance).toBe('200.00');
    } finally {
      await cluster.resumeReplay();
    }
  });

  it('reads the activity log and the dashboard from the standby', async () => {
    const superAdmin = await signIn('SA1.admin');
    await cluster.catchUp();
    await cluster.pauseReplay();
    try {
      // Writes straight on the primary, by no person of the API: the standby's readers cannot see them yet.
      await database.db
        .updateTable('organization_billing_settings')
        .set({ low_balance_threshold: '42' })
        .where('organization_id', '=', world.orgs.SA1.id)
        .execute();
      await writeAudit(database.db, {
        actorUserId: null,
        organizationId: world.orgs.SA1.id,
        action: 'organization.update',
        targetType: 'organization',
        targetId: world.orgs.SA1.id,
        details: { before: { description: null }, after: { description: 'Written on the primary' } },
      });
      const dashboard = await call('GET', '/api/dashboard', { token: superAdmin });
      expect(dashboard.status).toBe(200);
      expect(dashboard.body.credits.low_balance_threshold).not.toBe('42.00');
      const activity = await call('GET', `/api/activity?organization_id=${world.orgs.SA1.id}`, { token: superAdmin });
      expect(activity.status).toBe(200);
      expect(activity.body.events.filter((e: { action: string }) => e.action === 'organization.update')).toEqual([]);
      // The standby's own view: the API's read pool is connected to it, under its name.
      const seen = await cluster.query<{ n: number }>(
        'replica',
        `select count(*)::int as n from pg_stat_activity where application_name = 'console-read' and datname = 'console'`,
      );
      expect(seen[0]!.n).toBeGreaterThan(0);
    } finally {
      await cluster.resumeReplay();
    }
    await cluster.catchUp();
    const after = await call('GET', '/api/dashboard', { token: superAdmin });
    expect(after.body.credits.low_balance_threshold).toBe('42.00');
    const activity = await call('GET', `/api/activity?organization_id=${world.orgs.SA1.id}`, { token: superAdmin });
    expect(activity.body.events.filter((e: { action: string }) => e.action === 'organization.update')).toHaveLength(1);
  });
});
