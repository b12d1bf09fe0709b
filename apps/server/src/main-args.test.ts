import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killChildren, REPO_ROOT, supervise } from '../../../support/server-process.ts';
import { parseCommandLine, usageOf, USAGE } from './main-args.ts';

/**
 * The command line's arguments, as an operator types them (`npm run db:backup -- --help`):
 * every command answers --help with its usage and refuses a flag it does not know (exit 2,
 * one line naming it, then the usage), before it opens or writes anything. Each run is in an
 * empty folder of its own with DATA_DIR inside it, so anything a command wrote would show.
 */
const root = mkdtempSync(join(tmpdir(), 'console-main-args-'));
const COMMANDS = ['serve', 'migrate', 'seed', 'reconcile', 'backup', 'restore'] as const;

afterAll(async () => {
  await killChildren();
  rmSync(root, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** What the run left in its folder. */
  written: string[];
}

let runs = 0;
/** `node main.ts <args>` in a new empty folder, on the embedded database there; a run that would not end (a server) is stopped after two minutes. */
async function main(args: string[]): Promise<Run> {
  const cwd = mkdtempSync(join(root, `run-${runs++}-`));
  const child = spawn(process.execPath, [join(REPO_ROOT, 'apps/server/src/main.ts'), ...args], {
    cwd,
    env: { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: '', DATA_DIR: join(cwd, 'data'), PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const supervised = supervise(child);
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const { code } = await supervised.exited;
  clearTimeout(timer);
  return { code, stdout, stderr, written: readdirSync(cwd) };
}

describe('the command line', () => {
  it('answers --help of every command with its usage on stdout, exit 0, writing nothing', async () => {
    for (const command of COMMANDS) {
      const run = await main([command, '--help']);
      expect(run, command).toMatchObject({ code: 0, stderr: '', written: [] });
      expect(run.stdout, command).toMatch(new RegExp(`^Usage: main\\.ts ${command}\\b`));
    }
    const top = await main(['--help']);
    expect(top).toMatchObject({ code: 0, stderr: '', written: [] });
    for (const command of COMMANDS) expect(top.stdout).toMatch(new RegExp(`^ {2}${command}\\b`, 'm'));
  }, 300_000);

  it('refuses an unknown flag of every command: exit 2, one line naming it, then the usage; nothing written', async () => {
    for (const command of COMMANDS) {
      const run = await main([command, '--bogus']);
      expect(run, command).toMatchObject({ code: 2, stdout: '', written: [] });
      const [first, ...rest] = run.stderr.split('\n');
      expect(first, command).toBe(`Unknown option for ${command}: --bogus`);
      expect(rest.join('\n'), command).toMatch(new RegExp(`^Usage: main\\.ts ${command}\\b`));
    }
  }, 300_000);
});

describe('reading the command line (parseCommandLine)', () => {
  const refusal = (argv: string[]) => {
    const line = parseCommandLine(argv);
    return line.kind === 'refused' ? line.text.split('\n')[0] : line.kind;
  };

  it('takes the flags and arguments a command knows; no command is serve', () => {
    expect(parseCommandLine([])).toEqual({ kind: 'run', command: 'serve', flags: new Set(), args: [] });
    expect(parseCommandLine(['seed', '--demo'])).toEqual({ kind: 'run', command: 'seed', flags: new Set(['demo']), args: [] });
    expect(parseCommandLine(['backup', 'out.tar.gz'])).toMatchObject({ kind: 'run', args: ['out.tar.gz'] });
    // A file whose name begins with a dash goes after `--`.
    expect(parseCommandLine(['backup', '--', '--help'])).toMatchObject({ kind: 'run', command: 'backup', args: ['--help'] });
  });

  it('answers the usage to --help or -h anywhere before `--`, and to no command but --help', () => {
    expect(parseCommandLine(['seed', '--demo', '-h'])).toEqual({ kind: 'help', text: usageOf('seed') });
    expect(parseCommandLine(['backup', 'out.tar.gz', '--help'])).toEqual({ kind: 'help', text: usageOf('backup') });
    expect(parseCommandLine(['restore', '--bogus', '--help'])).toEqual({ kind: 'help', text: usageOf('restore') });
    expect(parseCommandLine(['--help'])).toEqual({ kind: 'help', text: USAGE });
    expect(parseCommandLine(['-h'])).toEqual({ kind: 'help', text: USAGE });
  });

  it('refuses, naming it, a flag it does not know, a value given to a flag, one argument too many, an unknown command', () => {
    expect(refusal(['migrate', '-x'])).toBe('Unknown option for migrate: -x');
    expect(refusal(['serve', '--demo'])).toBe('Unknown option for serve: --demo');
    expect(refusal(['seed', '--demo=yes'])).toBe('The option --demo of seed takes no value');
    expect(refusal(['backup', 'one.tar.gz', 'two.tar.gz'])).toBe('Unexpected argument for backup: two.tar.gz');
    expect(refusal(['reconcile', 'now'])).toBe('Unexpected argument for reconcile: now');
    expect(refusal(['bogus'])).toBe('Unknown command: bogus');
    expect(parseCommandLine(['backup', 'a', 'b'])).toEqual({
      kind: 'refused',
      text: `Unexpected argument for backup: b\n${usageOf('backup')}`,
    });
    expect(parseCommandLine(['bogus'])).toEqual({ kind: 'refused', text: `Unknown command: bogus\n${USAGE}` });
  });
});
