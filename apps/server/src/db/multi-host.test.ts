import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReplicaCluster, replicaSkipReason, type ReplicaCluster } from '../test/replica-cluster.ts';
import { openDatabase, type Database } from './connection.ts';
import { connectForBackup, connectionOf } from './backup.ts';
import { parseHostList } from './multi-host.ts';
import { tmpdir } from 'node:os';
import { createServer, type Socket } from 'node:net';

describe('parseHostList', () => {
  it('reads libpq multi-host URLs, in order, with default ports and IPv6', () => {
    const list = parseHostList('postgresql://u:p%40ss@db1,db2:5433,[::1]:6000/console?sslmode=disable&target_session_attrs=read-write');
    expect(list?.hosts).toEqual([
      { host: 'db1', port: 5432 },
      { host: 'db2', port: 5433 },
      { host: '::1', port: 6000 },
    ]);
    expect(list?.readWrite).toBe(true);
    // The first host's URL keeps the credentials, the database and the other parameters.
    expect(list?.url).toBe('postgresql://u:p%40ss@db1:5432/console?sslmode=disable');
    expect(list?.urlOf(list.hosts[2]!)).toBe('postgresql://u:p%40ss@[::1]:6000/console?sslmode=disable');
  });

  it('gives the backup tools a multi-host URL without its password', () => {
    const url = 'postgres://console:p%40ss@db1:5432,db2:5432/console?target_session_attrs=read-write';
    expect(connectionOf(url)).toEqual({
      url: 'postgres://console@db1:5432,db2:5432/console?target_session_attrs=read-write',
      env: { PGPASSWORD: 'p@ss' },
    });
  });

  it('leaves a one-host URL without target_session_attrs to pg', () => {
    expect(parseHostList('postgres://u@db1:5432/console')).toBeNull();
    expect(parseHostList('postgres://u@db1/console?target_session_attrs=any')?.readWrite).toBe(false);
  });
});

/** A port on which nothing listens (taken, then freed). */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A server that takes connections and never answers (a host hung, or gone without refusing). */
async function silentServer(): Promise<{ port: number; close(): void }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

const skip = replicaSkipReason();

describe.skipIf(skip !== null)(`a pool over several hosts${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: ReplicaCluster;
  let database: Database;

  beforeAll(async () => {
    cluster = await startReplicaCluster();
    await cluster.query('primary', 'create table probe (n int)');
    await cluster.startReplica();
    const [standby, primary] = [cluster.url('replica', 'postgres'), cluster.url('primary', 'postgres')].map((u) => new URL(u).host);
    // The standby first, then a host that refuses, then the primary.
    const url = `postgres://postgres@${standby},127.0.0.1:${await closedPort()},${primary}/postgres?target_session_attrs=read-write`;
    database = await openDatabase({ databaseUrl: url, dataDir: tmpdir(), purpose: 'multi-host test', poolSize: 2 });
  }, 60_000);

  afterAll(async () => {
    await database?.close();
    await cluster?.stop();
  });

  it('connects to the one that takes writes, past a standby and a refused host', async () => {
    const [primary] = await cluster.query<{ port: number }>('primary', 'select inet_server_port() as port');
    const { rows } = await database.pool!.query<{ port: number; standby: boolean }>(
      'select inet_server_port() as port, pg_is_in_recovery() as standby',
    );
    expect(rows[0]).toEqual({ port: primary!.port, standby: false });
    await database.pool!.query('insert into probe values (1)');
  });

  it("opens the backup's short connection on the primary too", async () => {
    const [standby, primary] = [cluster.url('replica', 'postgres'), cluster.url('primary', 'postgres')].map((u) => new URL(u).host);
    const client = await connectForBackup(`postgres://postgres@${standby},${primary}/postgres?target_session_attrs=read-write`);
    try {
      const { rows } = await client.query<{ standby: boolean }>('select pg_is_in_recovery() as standby');
      expect(rows[0]?.standby).toBe(false);
    } finally {
      await client.end();
    }
  });

  it('passes over a host that never answers within its share of the connect timeout', async () => {
    const silent = await silentServer();
    const primary = new URL(cluster.url('primary', 'postgres')).host;
    const url = `postgres://postgres@127.0.0.1:${silent.port},${primary}/postgres?target_session_attrs=read-write`;
    const other = await openDatabase({ databaseUrl: url, dataDir: tmpdir(), purpose: 'multi-host test', poolSize: 2 });
    try {
      const { rows } = await other.pool!.query<{ standby: boolean }>('select pg_is_in_recovery() as standby');
      expect(rows[0]?.standby).toBe(false);
    } finally {
      await other.close();
      silent.close();
    }
  });

  it('drops a connection that finds its server read-only, and then finds none to take writes', async () => {
    await cluster.query('primary', 'alter system set default_transaction_read_only = on');
    await cluster.query('primary', 'select pg_reload_conf()');
    try {
      const client = await database.pool!.connect();
      // The reload reaches a session between statements.
      await client.query('select pg_sleep(0.2)');
      await expect(client.query('insert into probe values (2)')).rejects.toMatchObject({ code: '25006' });
      client.release();
      expect(database.pool!.totalCount).toBe(0);
      await expect(database.pool!.query('select 1')).rejects.toThrow(/no server of 3 takes writes/);
    } finally {
      await cluster.query('primary', 'alter system reset default_transaction_read_only');
      await cluster.query('primary', 'select pg_reload_conf()');
    }
    await database.pool!.query('insert into probe values (3)');
  });
});
