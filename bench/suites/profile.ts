import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HTTP_COLUMNS, call, measure, signIn } from '../lib/http.ts';
import { readProfile, type ProfileLine } from '../lib/profile.ts';
import { BENCH_ADMIN, withServer } from '../lib/server.ts';
import type { Column, Row, Suite, Table } from '../lib/types.ts';

const TOP = 15;
const CHILDREN = 50;
/** The profile taken before the per-request work was cut, kept to compare with. */
const BEFORE = fileURLToPath(new URL('../baselines/profile-before.json', import.meta.url));

const PROFILE_COLUMNS: Column[] = [
  { key: 'name', label: 'function (self time)', format: 'text' },
  { key: 'where', label: 'where', format: 'text' },
  { key: 'selfPercent', label: '% of busy samples', format: 'fixed1' },
];
const PACKAGE_COLUMNS: Column[] = [
  { key: 'name', label: 'package (self time)', format: 'text' },
  { key: 'selfPercent', label: '% of busy samples', format: 'fixed1' },
];

interface Profiled {
  row: Row;
  functions: ProfileLine[];
  packages: ProfileLine[];
  samples: number;
}

export const profile: Suite = {
  name: 'profile',
  title: 'Where the CPU of an authenticated request goes',
  about:
    "The API on PostgreSQL (PostgreSQL only) profiled with V8's sampling CPU profiler (what `node --cpu-prof` " +
    'uses, here started through `node:inspector` for the measured run only, so start-up and warm-up are left out; ' +
    'sampling every 0.5 ms, which itself costs some CPU) while autocannon drives `GET /api/users/me` at 50 connections, then, ' +
    `in a second server, \`GET /api/organizations\` (the house's ${CHILDREN} super agencies, first page of 50) at 50 ` +
    "connections, then, in a third, `GET /api/v1/entitlements` with an API key (the house's own organization and an agent it does not have: " +
    'the same two statements as any check) at 50 connections. For each route: the top functions by self time (the CPU spent in the function itself, ' +
    'not in what it calls) as a share of the samples in which the process was busy, and the same summed ' +
    'by package ("node (internals)" is Node\'s own JavaScript: http, streams, timers; "(garbage ' +
    'collector)" and "(program)" are V8\'s). Idle samples are left out. When `bench/baselines/profile-before.json` ' +
    'is present, the tables of that earlier profile follow, under "before", and its rows lead the table. Between the two: ' +
    'an access token is verified by jose once and then remembered by its exact text (its expiry still checked on each use, ' +
    'its session and user still read on every request), which removed the WebCrypto HMAC job (`run`, the largest item ' +
    "before) and jose's parsing; and the caller's query, run by every authenticated request, is compiled to SQL once " +
    "and only bound per request; since then the two routes' own queries (the profile; the organization by id, the page " +
    'and its count for each shape of the list) are compiled once the same way and sent as prepared statements; and each ' +
    "answer is written by a fast-json-stringify serializer compiled at start-up from its response schema's JSON Schema " +
    'instead of a zod check and `JSON.stringify` per answer, and timestamps are read from pg as ISO text instead of a Date ' +
    'that the answer turned back into text.',
  columns: HTTP_COLUMNS,
  async run(context) {
    if (!context.databaseUrl) return { status: 'skipped', reason: 'needs PostgreSQL (set DATABASE_URL)' };
    const durationSeconds = context.durationSeconds ?? 10;
    const me = await profiled(context, durationSeconds, 'GET /api/users/me', async () => '/api/users/me');
    const list = await profiled(
      context,
      durationSeconds,
      `GET /api/organizations (${CHILDREN} children, page of 50)`,
      async (server, token) => {
        for (let n = 0; n < CHILDREN; n++) {
          await call(server, 'POST', '/api/organizations', token, {
            name: `Profile agency ${String(n).padStart(2, '0')}`,
            org_type: 'super_agency',
          });
        }
        return '/api/organizations';
      },
    );
    // A machine route: the entitlement check, authenticated by an API key instead of a session.
    const entitlement = await profiled(context, durationSeconds, 'GET /api/v1/entitlements (API key)', async (server, token) => {
      const me = await call<{ organization_id: string }>(server, 'GET', '/api/users/me', token);
      const { secret } = await call<{ secret: string }>(server, 'POST', `/api/organizations/${me.organization_id}/api-keys`, token, {
        name: 'Profile key',
        scopes: ['entitlements:read'],
      });
      return { path: `/api/v1/entitlements?organization_id=${me.organization_id}&agent=profile-bot`, bearer: secret };
    });
    const tables = (label: string, p: { row: Row; functions: ProfileLine[]; packages: ProfileLine[]; samples: number }): Table[] => [
      {
        title: `${p.row.name}${label}: top functions (${p.samples.toLocaleString('en-US')} busy samples)`,
        columns: PROFILE_COLUMNS,
        rows: p.functions.map(line),
      },
      { title: `${p.row.name}${label}: by package`, columns: PACKAGE_COLUMNS, rows: p.packages.map(line) },
    ];
    const after = [me, list, entitlement];
    const before = existsSync(BEFORE)
      ? (JSON.parse(readFileSync(BEFORE, 'utf8')) as { date: string; commit: string; details: { profiles: Profiled[] } })
      : null;
    return {
      status: 'ok',
      rows: [
        ...(before?.details.profiles.map((p) => ({ ...p.row, name: `${p.row.name}, before (${before.commit})` })) ?? []),
        ...after.map((p) => p.row),
      ],
      tables: [
        ...after.flatMap((p) => tables('', p)),
        ...(before?.details.profiles.flatMap((p) => tables(`, before (${before.commit}, ${before.date.slice(0, 10)})`, p)) ?? []),
      ],
      details: { profiles: after },
    };
  },
};

const line = (l: ProfileLine): Row => ({ name: l.name, where: l.where, selfPercent: l.selfPercent });

async function profiled(
  context: Parameters<Suite['run']>[0],
  durationSeconds: number,
  name: string,
  /** The path to drive, and the bearer to send when it is not the admin's access token. */
  prepare: (server: Parameters<Parameters<typeof withServer>[2]>[0], token: string) => Promise<string | { path: string; bearer: string }>,
): Promise<Profiled> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-profile-'));
  const file = join(dir, 'server.cpuprofile');
  try {
    const row = await withServer('postgresql', context, async (server) => {
      const token = await signIn(server, BENCH_ADMIN);
      const prepared = await prepare(server, token);
      const { path, bearer } = typeof prepared === 'string' ? { path: prepared, bearer: token } : prepared;
      context.log(`${name}, profiled`);
      return measure(server, {
        name,
        method: 'GET',
        path,
        headers: { authorization: `Bearer ${bearer}` },
        connections: 50,
        durationSeconds,
        profileFile: file,
      });
    });
    return { row, ...readProfile(file, TOP) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
