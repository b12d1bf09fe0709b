/**
 * API hosts for the multi-host suite: the real server (`main.ts serve`) bound to its own
 * address (in its own network namespace, or on a loopback address of its own: see
 * network.ts), each a process with its own pool and its own background loops, over one
 * PostgreSQL database. Every line a host writes is kept, for the suite to read its logs.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, supervise, type Supervised } from '../support/server-process.ts';

export interface Host extends Supervised {
  address: string;
  port: number;
  url: string;
  /** The process id (its CPU time is in /proc/<pid>/stat: the bench reads it). */
  pid: number;
  /** The JSON log lines written so far, parsed (other lines are left out). */
  logs(): Record<string, unknown>[];
}

/** Starts a host on `address`:`port` and resolves once its /api/health answers 200. */
export async function startHost(options: {
  address: string;
  port: number;
  env: NodeJS.ProcessEnv;
  /** The command line that runs `argv` where the host lives (its network namespace); `argv` itself by default. */
  command?: (argv: string[]) => string[];
}): Promise<Host> {
  const { address, port } = options;
  const url = `http://${address}:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'console-host-'));
  const [program, ...args] = (options.command ?? ((argv) => argv))([process.execPath, 'apps/server/src/main.ts', 'serve']);
  const child = spawn(program!, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...options.env, HOST: address, PORT: String(port), DATA_DIR: dataDir, APP_URL: url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const supervised = supervise(child);
  void supervised.exited.then(() => rmSync(dataDir, { recursive: true, force: true }));
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`host ${address} exited before answering:\n${text}`);
    if (
      await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error(`host ${address} did not answer /api/health within 60 s:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const logs = () =>
    text.split('\n').flatMap((line) => {
      if (!line.startsWith('{')) return [];
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  return { ...supervised, address, port, url, pid: child.pid!, logs };
}
