/**
 * Reads a V8 CPU profile (node --cpu-prof) into the functions that used the most CPU
 * themselves (self time), and the same summed by package.
 */
import { readFileSync } from 'node:fs';
import { round } from './http.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileLine {
  name: string;
  where: string;
  /** Share of all samples of the process, in percent. */
  selfPercent: number;
}

/** node_modules/<package> (scoped too), the repository's own files, node's internals, or V8. */
function placeOf(url: string): string {
  if (!url) return '(V8 / native)';
  if (url.startsWith('node:')) return 'node (internals)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1]!;
  const own = /\/(apps\/[^/]+|packages\/[^/]+|bench|support)\//.exec(url);
  return own ? own[1]! : url;
}

function shortUrl(url: string): string {
  return url
    .replace(/^file:\/\//, '')
    .replace(/^.*?\/node_modules\//, '')
    .replace(/^.*?\/(apps|packages|bench|support)\//, '$1/');
}

export function readProfile(path: string, top: number): { functions: ProfileLine[]; packages: ProfileLine[]; samples: number } {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const hits = new Map<number, number>();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  // Idle time is not work: shares are of the samples that ran something.
  const idle = new Set(['(idle)', '(program)', '(garbage collector)']);
  let busy = 0;
  const functions = new Map<string, ProfileLine & { hits: number }>();
  const packages = new Map<string, number>();
  for (const [id, count] of hits) {
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') continue;
    busy += count;
    const name = functionName || '(anonymous)';
    const where = idle.has(name) ? '' : url ? `${shortUrl(url)}:${lineNumber + 1}` : '';
    const key = `${name} ${where}`;
    const line = functions.get(key) ?? { name, where, selfPercent: 0, hits: 0 };
    line.hits += count;
    functions.set(key, line);
    const place = idle.has(name) ? name : placeOf(url);
    packages.set(place, (packages.get(place) ?? 0) + count);
  }
  const percent = (n: number) => round((100 * n) / Math.max(1, busy), 1);
  return {
    samples: busy,
    functions: [...functions.values()]
      .sort((a, b) => b.hits - a.hits)
      .slice(0, top)
      .map(({ name, where, hits: n }) => ({ name, where, selfPercent: percent(n) })),
    packages: [...packages.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, n]) => ({ name, where: '', selfPercent: percent(n) })),
  };
}
