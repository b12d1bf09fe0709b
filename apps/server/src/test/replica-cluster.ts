import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

/** Debian's PostgreSQL 15 server programs. */
const BIN = '/usr/lib/postgresql/15/bin';
const run = promisify(execFile);

/** Why the replica tests cannot run here, or null when they can. */
export function replicaSkipReason(): string | null {
  if (!process.env.DATABASE_URL) return 'DATABASE_URL is unset: the suite runs on the embedded database, which has no replica';
  return clusterSkipReason();
}

/** Why a cluster of the test's own cannot be built here (PostgreSQL 15's programs, a user to run them as), or null. */
export function clusterSkipReason(): string | null {
  for (const tool of ['initdb', 'pg_ctl', 'pg_basebackup', 'postgres']) {
    if (!existsSync(join(BIN, tool))) return `${join(BIN, tool)} is missing (Debian's postgresql-15 package)`;
  }
  if (process.getuid?.() === 0) {
    try {
      execFileSync('id', ['-u', 'postgres'], { stdio: 'pipe' });
    } catch {
      return 'running as root without a postgres user to run the servers as';
    }
  }
  return null;
}

/** The processes whose parent is `pid` (from /proc). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The parent is the 2nd field after the command, which is in parentheses and may hold spaces.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(entry));
    } catch {
      // the process ended while listed
    }
  }
  return children;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface ReplicaCluster {
  /** A URL on the primary or on the hot standby. */
  url(server: 'primary' | 'replica', database: string): string;
  /** Copies the primary into the standby (pg_basebackup -R) and starts it. */
  startReplica(): Promise<void>;
  /** Runs one statement on a server as its superuser. */
  query<R extends pg.QueryResultRow>(server: 'primary' | 'replica', text: string, params?: unknown[]): Promise<R[]>;
  /** Waits until the standby has replayed everything the primary has written so far. */
  catchUp(): Promise<void>;
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /**
   * Makes the primary wait, at each commit, for the standby (named `standby` by its
   * cluster_name): `on` until it has flushed the commit's WAL, `remote_apply` until it has
   * replayed it. Resolves once the standby is the synchronous one.
   */
  makeSynchronous(commit: 'on' | 'remote_apply'): Promise<void>;
  /** SIGKILLs the primary's postmaster (a crashed host); its port then refuses. */
  killPrimary(): Promise<void>;
  /** Promotes the standby (pg_ctl promote) and resolves once it takes writes. */
  promote(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A primary of its own (initdb in a temporary folder: its pg_hba admits replication over
 * 127.0.0.1 with trust, which the machine's cluster does not) and, on request, a hot standby
 * made from it with pg_basebackup. Run as the postgres user when the tests run as root: a
 * server refuses to run as root, and its data folder must be its own. Nothing outside the
 * temporary folder is touched; stop() removes it.
 */
export async function startReplicaCluster(): Promise<ReplicaCluster> {
  const root = mkdtempSync(join(tmpdir(), 'console-replica-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(root, uid, gid);
  }
  const pgTool = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(BIN, tool), ...args], { cwd: root }) : run(join(BIN, tool), args, { cwd: root });
  const ports = { primary: await freePort(), replica: await freePort() };
  const dirs = { primary: join(root, 'primary'), replica: join(root, 'replica') };
  const started: Array<'primary' | 'replica'> = [];
  const options = (port: number, extra: string) =>
    `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c autovacuum=off -c max_wal_senders=4 ${extra}`;
  const url = (server: 'primary' | 'replica', database: string) => `postgres://postgres@127.0.0.1:${ports[server]}/${database}`;

  async function query<R extends pg.QueryResultRow>(server: 'primary' | 'replica', text: string, params: unknown[] = []) {
    const client = new pg.Client({ connectionString: url(server, 'postgres') });
    await client.connect();
    try {
      return (await client.query<R>(text, params)).rows;
    } finally {
      await client.end();
    }
  }

  /** Backends of a killed postmaster, ended at stop() should they outlive it. */
  const orphans: number[] = [];

  async function stop() {
    for (const pid of orphans.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    for (const server of started.reverse()) {
      await pgTool('pg_ctl', ['-D', dirs[server], '-m', 'immediate', 'stop']).catch(() => {});
    }
    started.length = 0;
    rmSync(root, { recursive: true, force: true });
  }

  try {
    await pgTool('initdb', ['-D', dirs.primary, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
    await pgTool('pg_ctl', [
      '-D',
      dirs.primary,
      '-l',
      join(root, 'primary.log'),
      '-w',
      '-o',
      options(ports.primary, '-c wal_level=replica'),
      'start',
    ]);
    started.push('primary');
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    url,
    query,
    stop,
    async startReplica() {
      await pgTool('pg_basebackup', [
        '-h',
        '127.0.0.1',
        '-p',
        String(ports.primary),
        '-U',
        'postgres',
        '-D',
        dirs.replica,
        '-R',
        '-X',
        'stream',
        '-c',
        'fast',
        '--no-sync',
      ]);
      await pgTool('pg_ctl', [
        '-D',
        dirs.replica,
        '-l',
        join(root, 'replica.log'),
        '-w',
        '-o',
        options(ports.replica, '-c hot_standby=on -c cluster_name=standby'),
        'start',
      ]);
      started.push('replica');
    },
    async catchUp() {
      const [{ lsn }] = (await query<{ lsn: string }>('primary', 'select pg_current_wal_lsn()::text as lsn')) as [{ lsn: string }];
      for (;;) {
        const [row] = await query<{ ok: boolean }>('replica', 'select pg_last_wal_replay_lsn() >= $1::pg_lsn as ok', [lsn]);
        if (row?.ok) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async pauseReplay() {
      // Once asked, the standby applies no further record: it checks before each one.
      await query('replica', 'select pg_wal_replay_pause()');
    },
    async resumeReplay() {
      await query('replica', 'select pg_wal_replay_resume()');
    },
    async makeSynchronous(commit) {
      // Set after the copy, so the standby does not inherit it: promoted with no standby of
      // its own, it would otherwise wait at every commit for one that is not there.
      await query('primary', "alter system set synchronous_standby_names = 'standby'");
      await query('primary', `alter system set synchronous_commit = '${commit}'`);
      await query('primary', 'select pg_reload_conf()');
      for (;;) {
        const rows = await query<{ sync_state: string }>(
          'primary',
          "select sync_state from pg_stat_replication where application_name = 'standby'",
        );
        if (rows[0]?.sync_state === 'sync') return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async killPrimary() {
      const pid = Number(readFileSync(join(dirs.primary, 'postmaster.pid'), 'utf8').split('\n')[0]);
      orphans.push(...childrenOf(pid));
      process.kill(pid, 'SIGKILL');
      started.splice(started.indexOf('primary'), 1);
    },
    async promote() {
      await pgTool('pg_ctl', ['-D', dirs.replica, '-w', 'promote']);
      for (;;) {
        const [row] = await query<{ standby: boolean }>('replica', 'select pg_is_in_recovery() as standby');
        if (row && !row.standby) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}
