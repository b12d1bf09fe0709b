import { createHash } from 'node:crypto';
import { chmodSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { BackupError, snapshotPGlite, type Snapshot } from './backup.ts';
import type { Database } from './connection.ts';

/**
 * The running server takes the embedded database's backups for `db:backup`: only the process
 * holding the data folder's lock may open it. It listens on a Unix socket inside DATA_DIR,
 * which only the folder's owner can reach (the folder is 0700, the socket 0600), so the same
 * user that could read the files anyway is the only one who can ask.
 *
 * Protocol: the client sends one line `{"request":"backup"}`; the server answers one line of
 * JSON, `{"ok":true,"bytes":N,"sha256":"...","schemaVersion":V}` followed by the N bytes of
 * the archive, or `{"ok":false,"message":"..."}`.
 */
export const SOCKET_NAME = 'console.sock';

/** How long the command waits for the server's answer (no byte received) before giving up. */
const ANSWER_TIMEOUT_MS = 10 * 60_000;

/** Unix socket paths are limited to about 107 bytes (104 on macOS). */
const MAX_SOCKET_PATH = 100;

export function backupSocketPath(dataDir: string): string {
  return join(resolve(dataDir), SOCKET_NAME);
}

/** Whether the data folder's path leaves no room for the socket (no server listens there then). */
export function socketPathTooLong(dataDir: string): boolean {
  return Buffer.byteLength(backupSocketPath(dataDir)) > MAX_SOCKET_PATH;
}

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Starts answering backup requests; call with the data folder locked by this process, so
 * a socket file already there is a stale one (a server killed before it could remove it)
 * and is replaced. Resolves to a function that stops listening and removes the socket.
 */
export async function listenForBackups(database: Database, dataDir: string, log: Log): Promise<() => Promise<void>> {
  const path = backupSocketPath(dataDir);
  if (socketPathTooLong(dataDir)) {
    log.warn(
      { path },
      'DATA_DIR is too long a path for the backup socket: db:backup cannot reach this server (stop it to back up, or use a shorter DATA_DIR)',
    );
    return async () => {};
  }
  removeSocket(path);
  // One backup at a time: a second request waits for the first rather than copying alongside it.
  let queue: Promise<unknown> = Promise.resolve();
  const server = createServer((socket) => {
    socket.on('error', () => {
      // The client went away; nothing to answer.
    });
    readRequest(socket)
      .then((request) => {
        if (request?.request !== 'backup') throw new BackupError('unknown request');
        const taken = queue.then(() => snapshotPGlite(database));
        queue = taken.catch(() => {});
        return taken;
      })
      .then(
        (snapshot) => {
          log.info({ bytes: snapshot.archive.length }, 'backup taken for db:backup');
          socket.end(Buffer.concat([Buffer.from(`${JSON.stringify(headerOf(snapshot))}\n`), snapshot.archive]));
        },
        (error: unknown) => {
          log.error({ err: (error as Error).message }, 'a backup request failed');
          socket.end(`${JSON.stringify({ ok: false, message: (error as Error).message })}\n`);
        },
      );
  });
  try {
    await new Promise<void>((resolvePromise, reject) => {
      server.once('error', reject);
      server.listen(path, () => {
        server.off('error', reject);
        resolvePromise();
      });
    });
    chmodSync(path, 0o600);
  } catch (error) {
    // Serving matters more than this way of taking backups: warn and go on without it.
    server.close();
    log.warn(
      { path, err: (error as NodeJS.ErrnoException).code ?? (error as Error).message },
      'the backup socket could not be opened: db:backup cannot reach this server',
    );
    return async () => {};
  }
  const onExit = () => removeSocket(path);
  process.on('exit', onExit);
  return async () => {
    process.off('exit', onExit);
    await new Promise<void>((resolvePromise) => server.close(() => resolvePromise()));
    removeSocket(path);
  };
}

function removeSocket(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function headerOf(snapshot: Snapshot) {
  return {
    ok: true,
    bytes: snapshot.archive.length,
    sha256: createHash('sha256').update(snapshot.archive).digest('hex'),
    schemaVersion: snapshot.schemaVersion,
  };
}

/** The first line a client sends (at most 1 KB), parsed; null if it is not JSON. */
function readRequest(socket: Socket): Promise<{ request?: unknown } | null> {
  return new Promise((resolvePromise) => {
    let received = '';
    const onData = (chunk: Buffer) => {
      received += chunk.toString('utf8');
      const end = received.indexOf('\n');
      if (end < 0 && received.length < 1024) return;
      socket.off('data', onData);
      try {
        resolvePromise(JSON.parse(received.slice(0, end < 0 ? undefined : end)));
      } catch {
        resolvePromise(null);
      }
    };
    socket.on('data', onData);
    socket.on('end', () => resolvePromise(null));
  });
}

/**
 * Asks the server running on `dataDir` for a backup. Resolves to null when none listens
 * (no socket, or a stale one), so the caller may open the folder itself; the archive is
 * checked against the length and SHA-256 the server announced.
 */
export function requestBackup(dataDir: string): Promise<Snapshot | null> {
  const path = backupSocketPath(dataDir);
  // No server can listen there (see listenForBackups): the caller goes on as if none ran.
  if (socketPathTooLong(dataDir)) return Promise.resolve(null);
  return new Promise((resolvePromise, reject) => {
    const socket = createConnection(path);
    const chunks: Buffer[] = [];
    let connected = false;
    // A server that stops answering (stuck, or stopped with SIGSTOP) must not hold the command forever.
    socket.setTimeout(ANSWER_TIMEOUT_MS, () => {
      socket.destroy();
      reject(
        new BackupError(
          `The server on ${dataDir} did not answer the backup request within ${ANSWER_TIMEOUT_MS / 60_000} minutes; nothing was written.`,
        ),
      );
    });
    socket.on('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify({ request: 'backup' })}\n`);
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!connected && (error.code === 'ENOENT' || error.code === 'ECONNREFUSED')) resolvePromise(null);
      else reject(new BackupError(`The server on ${dataDir} did not complete the backup (${error.code ?? error.message}).`));
    });
    socket.on('end', () => {
      const answer = Buffer.concat(chunks);
      const end = answer.indexOf(0x0a);
      let header: { ok?: boolean; message?: string; bytes?: number; sha256?: string; schemaVersion?: number | null };
      try {
        header = JSON.parse(answer.subarray(0, end < 0 ? undefined : end).toString('utf8'));
      } catch {
        reject(new BackupError(`The server on ${dataDir} gave no readable answer to the backup request.`));
        return;
      }
      if (!header.ok) {
        reject(new BackupError(`The server on ${dataDir} could not take the backup: ${header.message ?? 'no reason given'}`));
        return;
      }
      const archive = answer.subarray(end + 1);
      if (archive.length !== header.bytes || createHash('sha256').update(archive).digest('hex') !== header.sha256) {
        reject(
          new BackupError(
            `The backup from the server on ${dataDir} arrived incomplete (${archive.length} of ${header.bytes} bytes); nothing was written.`,
          ),
        );
        return;
      }
      resolvePromise({ archive, schemaVersion: header.schemaVersion ?? null });
    });
  });
}
