import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Row, Suite } from '../lib/types.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIST = join(ROOT, 'apps/web/dist');
const INDEX = join(DIST, 'index.html');

/** The tags of index.html with their attributes (names lower-cased). */
function tags(html: string, name: string): Record<string, string>[] {
  return [...html.matchAll(new RegExp(`<${name}\\b([^>]*)>`, 'gi'))].map((tag) =>
    Object.fromEntries(
      [...tag[1]!.matchAll(/([\w:-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)].map((a) => [
        a[1]!.toLowerCase(),
        a[2] ?? a[3] ?? a[4] ?? '',
      ]),
    ),
  );
}

/** A path of index.html (/assets/x.js, ./assets/x.js) as a file in dist. */
function distFile(reference: string): string {
  if (/^[a-z]+:|^\/\//i.test(reference)) throw new Error(`index.html loads ${reference} from elsewhere`);
  const file = join(DIST, reference.replace(/^\.?\//, '').split(/[?#]/)[0]!);
  if (!existsSync(file)) throw new Error(`index.html loads ${reference}, which is not in apps/web/dist`);
  return file;
}

function sizeRow(name: string, files: string[], builtAt: string): Row {
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    const content = readFileSync(file);
    raw += content.length;
    gzip += gzipSync(content, { level: 9 }).length;
  }
  return { name, files: files.length, rawBytes: raw, gzipBytes: gzip, list: files.map((f) => basename(f)).join(', '), builtAt };
}

export const webSize: Suite = {
  name: 'web-size',
  title: "Console's JavaScript size",
  about:
    'What a browser downloads on first load of the console: the `<script type="module">` and ' +
    '`<link rel="modulepreload">` files of `apps/web/dist/index.html` (lazy page chunks are not ' +
    'counted; their total is shown for reference), and the stylesheets. Raw bytes and gzip ' +
    '(level 9) bytes. The web app is built first when `apps/web/dist/index.html` is missing ' +
    '(or with `--rebuild-web`); "built" says when the measured build was made.',
  columns: [
    { key: 'name', label: 'what', format: 'text' },
    { key: 'files', label: 'files', format: 'int' },
    { key: 'rawBytes', label: 'raw', format: 'bytes' },
    { key: 'gzipBytes', label: 'gzip', format: 'bytes' },
    { key: 'builtAt', label: 'built', format: 'text' },
  ],
  async run(context) {
    if (context.flags.rebuildWeb || !existsSync(INDEX)) {
      context.log('building the web app (npm run build -w @console/web)');
      try {
        execFileSync('npm', ['run', 'build', '-w', '@console/web'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
      } catch (error) {
        const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim().split('\n').slice(-3).join(' ');
        return { status: 'skipped', reason: `web build failed: ${stderr || String(error)}` };
      }
      if (!existsSync(INDEX)) return { status: 'skipped', reason: 'web build wrote no apps/web/dist/index.html' };
    }
    const html = readFileSync(INDEX, 'utf8');
    const builtAt = statSync(INDEX).mtime.toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
    const scripts = tags(html, 'script')
      .filter((a) => a.type === 'module' && a.src)
      .map((a) => a.src!);
    const links = tags(html, 'link');
    const rels = (a: Record<string, string>) => (a.rel ?? '').toLowerCase().split(/\s+/);
    const preloads = links.filter((a) => rels(a).includes('modulepreload') && a.href).map((a) => a.href!);
    const styles = links.filter((a) => rels(a).includes('stylesheet') && a.href).map((a) => a.href!);
    if (scripts.length === 0) return { status: 'skipped', reason: 'apps/web/dist/index.html has no <script type="module" src>' };

    const firstLoad = [...new Set([...scripts, ...preloads].map(distFile))];
    const assets = join(DIST, 'assets');
    const lazy = existsSync(assets)
      ? readdirSync(assets)
          .filter((f) => f.endsWith('.js'))
          .map((f) => join(assets, f))
          .filter((f) => !firstLoad.includes(f))
      : [];
    return {
      status: 'ok',
      rows: [
        sizeRow('JavaScript, first load', firstLoad, builtAt),
        sizeRow('CSS, first load', [...new Set(styles.map(distFile))], builtAt),
        sizeRow('JavaScript, lazy chunks (reference)', lazy, builtAt),
      ],
    };
  },
};
