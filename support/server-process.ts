/**
 * The API server as a child process, shared by the browser journeys, the reliability
 * suites and the benchmarks: follow a child until it exits, stop it (ask, then SIGKILL),
 * end every child still running, and start the real server (`main.ts serve`) on a port
 * and wait until /api/health answers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './net.ts';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Supervised {
  /** Resolves when the process has exited. */
  exited: Promise<Exit>;
  /**
   * Asks the process to end (`ask`, SIGTERM by default), SIGKILLs it if it is still
   * running after `graceMs`, and resolves once it has exited.
   */
  stop(options?: { ask?: () => void; graceMs?: number }): Promise<Exit>;
}

/** Children followed by supervise() that have not exited yet. */
const running = new Set<ChildProcess>();

/** Follows a child until it exits, so that it can be stopped, and ended by killChildren(). */
export function supervise(child: ChildProcess): Supervised {
  running.add(child);
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  return {
    exited,
    async stop({ ask = () => child.kill('SIGTERM'), graceMs = 10_000 } = {}) {
      if (child.exitCode === null && child.signalCode === null) {
        ask();
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      return exited;
    },
  };
}

/** SIGKILLs every supervised child still running and waits until they have exited (afterAll, signal handlers). */
export async function killChildren(): Promise<void> {
  await Promise.all(
    [...running].map((child) => {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      return gone;
    }),
  );
}

export interface ServerProcessOptions {
  /** Added to this process's environment; PORT, HOST, DATA_DIR and APP_URL are set here. */
  env?: NodeJS.ProcessEnv;
  /** The port to listen on on 127.0.0.1; a free one when left out. */
  port?: number;
  /** The data folder; a fresh temporary one, removed when the process exits, when left out. */
  dataDir?: string;
  /** How long the server may take to answer /api/health (migrations included). */
  healthTimeoutMs?: number;
  /**
   * The host name of the server's address (its APP_URL), still served on 127.0.0.1:
   * `localhost` where a browser refuses an IP address (passkeys' relying party).
   */
  hostname?: '127.0.0.1' | 'localhost';
}

export interface ServerProcess extends Supervised {
  url: string;
  pid: number;
  /** The last 20,000 characters the server wrote (for failure messages). */
  output(): string;
  signal(signal: NodeJS.Signals): void;
}

/**
 * Starts `main.ts serve` on 127.0.0.1 and resolves once /api/health answers 200. If the
 * process exits first, or does not answer in time (it is then SIGKILLed), rejects with
 * what it wrote.
 */
export async function startServerProcess(options: ServerProcessOptions = {}): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const url = `http://${options.hostname ?? '127.0.0.1'}:${port}`;
  // Another server still answering on a reused port would pass the health check below
  // while this one fails to bind, and the caller would test the wrong database.
  if (
    await fetch(`${url}/api/health`).then(
      () => true,
      () => false,
    )
  ) {
    throw new Error(`port ${port} is already answering: stop the server there before starting another`);
  }
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'console-server-'));
  // As `npm start` runs it: Node's own type stripping, no compiler at run time.
  const child = spawn(process.execPath, ['apps/server/src/main.ts', 'serve'], {
    cwd: REPO_ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...options.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, APP_URL: url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const supervised = supervise(child);
  if (!options.dataDir) void supervised.exited.then(() => rmSync(dataDir, { recursive: true, force: true }));
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);

  const timeoutMs = options.healthTimeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const exit = await supervised.exited;
      throw new Error(`the server exited (code ${exit.code}, signal ${exit.signal}) before answering /api/health:\n${output}`);
    }
    const healthy = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      await supervised.exited;
      throw new Error(`the server did not answer /api/health within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    ...supervised,
    url,
    pid: child.pid!,
    output: () => output,
    signal: (signal) => child.kill(signal),
  };
}
