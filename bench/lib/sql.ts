/**
 * Direct SQL on a bench database: bulk data generated on the server (generate_series,
 * INSERT ... SELECT, never row by row from Node) and EXPLAIN evidence.
 */
import type pg from 'pg';
import { round } from './http.ts';
import type { Column, Row } from './types.ts';

/** Runs one step, logs how long it took, and records it (seconds) in `times`. */
export async function step<T>(
  times: Record<string, number>,
  label: string,
  log: (message: string) => void,
  fn: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  const result = await fn();
  const seconds = round((performance.now() - started) / 1000, 1);
  times[label] = seconds;
  log(`  ${label}: ${seconds} s`);
  return result;
}

/**
 * Session settings for bulk generation, and `pg_temp.bench_uuid(text)`: a deterministic
 * version-4-shaped uuid (md5 of the text with the version and variant digits set), so a
 * parent's id is computed from its number instead of looked up.
 */
export async function prepareSession(client: pg.Client): Promise<void> {
  await client.query(`set synchronous_commit = off`);
  await client.query(`set work_mem = '256MB'`);
  await client.query(`set maintenance_work_mem = '512MB'`);
  await client.query(`
    create function pg_temp.bench_uuid(text) returns uuid language sql immutable as
    $$ select overlay(overlay(md5($1) placing '4' from 13) placing '8' from 17)::uuid $$`);
}

export interface TreeSpec {
  superAgencies: number;
  /** Agency a belongs to super agency a % superAgencies. */
  agencies: number;
  /** Tenant t belongs to agency t % agencies. */
  tenants: number;
}

export interface House {
  id: string;
  path: string;
  adminId: string;
}

/** The house and house admin the bench server created at start (ensureFirstHouseAdmin). */
export async function house(client: pg.Client): Promise<House> {
  const { rows } = await client.query<{ id: string; path: string; admin_id: string }>(
    `select o.id, o.path, u.id as admin_id from organizations o join users u on u.organization_id = o.id
     where o.org_type = 'house' and u.role = 'house_admin' limit 1`,
  );
  if (!rows[0]) throw new Error('no house: the bench server should have created it');
  return { id: rows[0].id, path: rows[0].path, adminId: rows[0].admin_id };
}

/** SQL for the id of super agency / agency / tenant number `n` (an SQL expression). */
export const ids = {
  superAgency: (n: string) => `pg_temp.bench_uuid('sa' || (${n}))`,
  agency: (n: string) => `pg_temp.bench_uuid('ag' || (${n}))`,
  tenant: (n: string) => `pg_temp.bench_uuid('tn' || (${n}))`,
};

const WORDS = [
  'Northwind',
  'Harbor',
  'Summit',
  'Cedar',
  'Atlas',
  'Beacon',
  'Meridian',
  'Falcon',
  'Granite',
  'Juniper',
  'Lumen',
  'Orchard',
  'Pioneer',
  'Quartz',
  'Riverside',
  'Sterling',
  'Timber',
  'Vertex',
  'Willow',
  'Zenith',
  'Aurora',
  'Bluebird',
  'Copper',
  'Delta',
  'Ember',
  'Fjord',
  'Glacier',
  'Horizon',
  'Ivory',
  'Keystone',
];
const NOUNS = ['Media', 'Logistics', 'Partners', 'Studio', 'Labs', 'Retail', 'Health', 'Foods', 'Travel', 'Energy', 'Systems', 'Group'];
const sqlArray = (values: string[]) => `array[${values.map((v) => `'${v}'`).join(', ')}]`;
/**
 * A name word picked by a hash of `n` (an SQL integer expression), so words do not follow
 * the numbers that place an organization in the tree: every subtree has every word.
 */
const word = (n: string) => `(${sqlArray(WORDS)})[1 + abs(hashtext('w' || (${n}))) % ${WORDS.length}]`;
const noun = (n: string) => `(${sqlArray(NOUNS)})[1 + abs(hashtext('n' || (${n}))) % ${NOUNS.length}]`;
/** A word that occurs in about 1 name in WORDS.length, for search benchmarks. */
export const SEARCH_WORD = 'Harbor';
/**
 * A creation time within the last two years, by a hash of `n`, so growth figures and the
 * dashboard's counts by day have real spread (the default would put everyone on one day).
 */
const createdAt = (kind: string, n: string) => `now() - make_interval(secs => abs(hashtext('${kind}' || (${n}))::bigint) % (730 * 86400))`;

/**
 * Inserts the tree below the house with INSERT ... SELECT over generate_series, one level
 * (tenants: batches of 100,000) at a time, each organization with its billing settings.
 * The path trigger is disabled meanwhile and the path computed here from the numbers
 * ('/<house>/<sa>/<agency>/<tenant>/', exactly what the trigger writes); it is checked
 * against the parents' paths afterwards and the trigger enabled again.
 */
export async function generateTree(client: pg.Client, spec: TreeSpec, times: Record<string, number>, log: (m: string) => void) {
  const h = await house(client);
  const H = `'${h.path}'`;
  const billing = (idExpr: string, from: number, to: number) =>
    client.query(
      `insert into organization_billing_settings (organization_id) select ${idExpr} from generate_series(${from}::bigint, ${to}::bigint) n`,
    );
  await client.query(`alter table organizations disable trigger organizations_path_trg`);
  try {
    await step(times, `${spec.superAgencies.toLocaleString('en-US')} super agencies`, log, async () => {
      await client.query(`
        insert into organizations (id, name, org_type, parent_org_id, parent_org_type, path, created_at)
        select ${ids.superAgency('n')}, 'Super Agency ' || lpad(n::text, 3, '0') || ' ' || ${word('n')}, 'super_agency',
               '${h.id}', 'house', ${H} || ${ids.superAgency('n')}::text || '/', ${createdAt('s', 'n')}
        from generate_series(0::bigint, ${spec.superAgencies - 1}::bigint) n`);
      await billing(ids.superAgency('n'), 0, spec.superAgencies - 1);
    });
    await step(times, `${spec.agencies.toLocaleString('en-US')} agencies`, log, async () => {
      await client.query(`
        insert into organizations (id, name, org_type, parent_org_id, parent_org_type, path, created_at)
        select ${ids.agency('n')}, ${word('n')} || ' ' || ${noun('n')} || ' Agency ' || n, 'agency',
               ${ids.superAgency(`n % ${spec.superAgencies}`)}, 'super_agency',
               ${H} || ${ids.superAgency(`n % ${spec.superAgencies}`)}::text || '/' || ${ids.agency('n')}::text || '/',
               ${createdAt('a', 'n')}
        from generate_series(0::bigint, ${spec.agencies - 1}::bigint) n`);
      await billing(ids.agency('n'), 0, spec.agencies - 1);
    });
    // Above 100,000 tenants, the organizations' own indexes (not those behind constraints) are
    // dropped during the load and built again from their definitions: far faster than
    // inserting a million random keys into them.
    const rebuild =
      spec.tenants > 100_000
        ? (
            await client.query<{ indexname: string; indexdef: string }>(
              `select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename = 'organizations'
               and indexname not in (select conname from pg_constraint where conrelid = 'organizations'::regclass)`,
            )
          ).rows
        : [];
    for (const index of rebuild) await client.query(`drop index ${index.indexname}`);
    const batch = 100_000;
    const started = performance.now();
    for (let from = 0; from < spec.tenants; from += batch) {
      const to = Math.min(spec.tenants, from + batch) - 1;
      await client.query(`
        insert into organizations (id, name, org_type, parent_org_id, parent_org_type, path, created_at)
        select ${ids.tenant('n')}, ${word('n')} || ' ' || ${noun('n')} || ' ' || n, 'tenant',
               ${ids.agency(`n % ${spec.agencies}`)}, 'agency',
               ${H} || ${ids.superAgency(`n % ${spec.agencies} % ${spec.superAgencies}`)}::text || '/'
                    || ${ids.agency(`n % ${spec.agencies}`)}::text || '/' || ${ids.tenant('n')}::text || '/',
               ${createdAt('t', 'n')}
        from generate_series(${from}::bigint, ${to}::bigint) n`);
      await billing(ids.tenant('n'), from, to);
      log(
        `  tenants ${(to + 1).toLocaleString('en-US')} / ${spec.tenants.toLocaleString('en-US')} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
      );
    }
    if (spec.tenants) times[`${spec.tenants.toLocaleString('en-US')} tenants`] = round((performance.now() - started) / 1000, 1);
    if (rebuild.length) {
      await step(times, `rebuild ${rebuild.map((i) => i.indexname).join(', ')}`, log, async () => {
        for (const index of rebuild) await client.query(index.indexdef);
      });
    }
  } finally {
    await client.query(`alter table organizations enable trigger organizations_path_trg`);
  }
  await step(times, 'check every path against its parent', log, async () => {
    const { rows } = await client.query<{ bad: number; total: number }>(`
      select count(*) filter (where c.path <> p.path || c.id::text || '/')::int as bad, count(*)::int as total
      from organizations c join organizations p on p.id = c.parent_org_id`);
    const expected = spec.superAgencies + spec.agencies + spec.tenants;
    if (rows[0]!.bad !== 0 || rows[0]!.total !== expected) {
      throw new Error(`generated tree is wrong: ${rows[0]!.bad} bad paths, ${rows[0]!.total} children (expected ${expected})`);
    }
  });
  return h;
}

/** A user inserted directly, with a hash from the server's own hashPassword. */
export async function insertUser(
  client: pg.Client,
  user: { email: string; passwordHash: string; role: string; organizationId: string },
): Promise<string> {
  const { rows } = await client.query<{ id: string }>(
    `insert into users (email, password_hash, first_name, last_name, role, organization_id)
     values ($1, $2, 'Bench', 'User', $3, $4) returning id`,
    [user.email, user.passwordHash, user.role, user.organizationId],
  );
  return rows[0]!.id;
}

/**
 * An admin for each generated super agency (`sa-admin-<n>@bench.test`, all with one password
 * hash), for allocations sent as the super agency that gives: answered in the super agencies' order.
 */
export async function superAgencyAdmins(
  client: pg.Client,
  superAgencies: number,
  passwordHash: string,
): Promise<{ email: string; orgId: string }[]> {
  const admins: { email: string; orgId: string }[] = [];
  for (let n = 0; n < superAgencies; n++) {
    const { rows } = await client.query<{ id: string }>(`select ${ids.superAgency(String(n))} as id`);
    const email = `sa-admin-${n}@bench.test`;
    await insertUser(client, { email, passwordHash, role: 'super_agency_admin', organizationId: rows[0]!.id });
    admins.push({ email, orgId: rows[0]!.id });
  }
  return admins;
}

export interface Plan {
  name: string;
  sql: string;
  params: unknown[];
  text: string;
  executionMs: number;
  planningMs: number;
  /** Scan nodes, e.g. "Index Only Scan using organizations_path_idx". */
  scans: string[];
  rows: number | null;
  sharedHit: number | null;
  sharedRead: number | null;
}

/** EXPLAIN (ANALYZE, BUFFERS) with bound parameters, as the server's driver sends them. */
export async function explain(client: pg.Client, name: string, text: string, params: unknown[] = []): Promise<Plan> {
  const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${text}`, params);
  const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
  const scans = [
    ...new Set(
      [
        ...plan.matchAll(
          /((?:Parallel )?(?:Index Only Scan|Index Scan|Bitmap Index Scan|Seq Scan|Bitmap Heap Scan|CTE Scan|WorkTable Scan)(?: Backward)?)(?: using| on) (\w+)/g,
        ),
      ].map((m) => `${m[1]} ${m[0].includes(' using ') ? 'using' : 'on'} ${m[2]}`),
    ),
  ];
  const top = rows[0]?.['QUERY PLAN'] ?? '';
  const buffers = /Buffers: shared(?: hit=(\d+))?(?: read=(\d+))?/.exec(plan);
  return {
    name,
    sql: text.replace(/\s+/g, ' ').trim(),
    params,
    text: plan,
    executionMs: Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? NaN),
    planningMs: Number(/Planning Time: ([\d.]+) ms/.exec(plan)?.[1] ?? NaN),
    scans,
    rows: Number(/actual time=[\d.]+\.\.[\d.]+ rows=(\d+)/.exec(top)?.[1] ?? NaN),
    sharedHit: buffers?.[1] ? Number(buffers[1]) : buffers ? 0 : null,
    sharedRead: buffers?.[2] ? Number(buffers[2]) : buffers ? 0 : null,
  };
}

export const PLAN_COLUMNS: Column[] = [
  { key: 'name', label: 'query', format: 'text' },
  { key: 'scans', label: 'scans in the plan', format: 'text' },
  { key: 'rows', label: 'rows', format: 'int' },
  { key: 'executionMs', label: 'execution', format: 'ms' },
  { key: 'sharedHit', label: 'buffers hit', format: 'int' },
  { key: 'sharedRead', label: 'buffers read', format: 'int' },
];

export function planRow(plan: Plan): Row {
  return {
    name: plan.name,
    scans: plan.scans.join(', '),
    rows: Number.isNaN(plan.rows) ? null : plan.rows,
    executionMs: round(plan.executionMs, 2),
    sharedHit: plan.sharedHit,
    sharedRead: plan.sharedRead,
  };
}
