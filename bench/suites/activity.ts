import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { ActivityParams } from '@console/domain';
import { hashPassword } from '../../apps/server/src/lib/secrets.ts';
import { activityPageQuery, type ActivityAnchor } from '../../apps/server/src/modules/activity/activity.service.ts';
import type { DB } from '../../apps/server/src/db/schema.ts';
import { HTTP_COLUMNS, measure, round, signIn } from '../lib/http.ts';
import { BENCH_ADMIN, withServer } from '../lib/server.ts';
import {
  PLAN_COLUMNS,
  explain,
  generateTree,
  ids,
  planRow,
  prepareSession,
  step,
  type House,
  type Plan,
  type TreeSpec,
} from '../lib/sql.ts';
import { withClient } from '../../support/postgres.ts';
import type { Row, Suite } from '../lib/types.ts';

const TREE: TreeSpec = { superAgencies: 10, agencies: 100, tenants: 2_000 };
/** The size of the audit log (BENCH_ACTIVITY_ROWS changes it). */
const ROWS = Number(process.env.BENCH_ACTIVITY_ROWS ?? 10_000_000);
const CHUNK = 1_000_000;
/** The server's default page. */
const PAGE = 50;
const DAY = 86_400;
/** Every organization has one admin, all with this password; the tenant admin of tenant 0 signs in. */
const PASSWORD = 'bench activity admin password';
const TENANT_ADMIN = { email: 'tn-0@activity.bench.test', password: PASSWORD };
/**
 * The actions, by share of the rows (out of 20): sign-ins dominate as in a real log; usage
 * reports are a key's (no person). The filter cases read credits.allocate (10 %) and
 * api_key.create (5 %).
 */
const ACTIONS: [string, number][] = [
  ['auth.sign_in', 8],
  ['auth.sign_in_failed', 1],
  ['user.update', 1],
  ['invitation.create', 1],
  ['invitation.accept', 1],
  ['credits.allocate', 2],
  ['credits.adjust_increase', 1],
  ['billing.agent_limit', 1],
  ['agent.activate', 1],
  ['api_key.create', 1],
  ['usage.reported', 2],
];

export const activity: Suite = {
  name: 'activity',
  title: `Activity log with ${ROWS.toLocaleString('en-US')} audit rows`,
  about:
    `${ROWS.toLocaleString('en-US')} \`audit_log\` rows generated in SQL on PostgreSQL (PostgreSQL only) over a year and a tree of ` +
    `2,111 organizations (house, ${TREE.superAgencies} super agencies, ${TREE.agencies} agencies, ${TREE.tenants.toLocaleString('en-US')} tenants), ` +
    'one admin each: 2 % of the rows on the house, 3 % on the super agencies, 10 % on the agencies, 85 % on the tenants ' +
    '(about 4,250 each), sign-ins 40 %, allocations 10 %, key usage reports 10 %, other actions 5 % each. Each row is ' +
    '`GET /api/activity` (50 events a page) at 10 connections, signed in as the house admin unless it says tenant admin: ' +
    "the house's first page (the whole tree), a page half-way down the whole tree (cursor), one tenant's first page, " +
    'the whole tree filtered by action (allocations, 10 %; API key creations, 5 %) and by actor (one tenant admin), ' +
    "and the tenant admin's own first page. The second table is `EXPLAIN (ANALYZE, BUFFERS)` of the server's own page " +
    'query (`activityPageQuery`) for the same cases; the plan texts are in `bench/results/activity.json`.',
  columns: HTTP_COLUMNS,
  async run(context) {
    if (!context.databaseUrl) {
      return { status: 'skipped', reason: 'needs PostgreSQL (set DATABASE_URL): PGlite cannot hold millions of audit rows quickly' };
    }
    return withServer('postgresql', context, async (server) => {
      const url = server.databaseUrl!;
      const times: Record<string, number> = {};
      context.log(`generating ${ROWS.toLocaleString('en-US')} audit rows on ${server.database}`);
      const started = performance.now();
      const setup = await withClient(url, async (client) => {
        await prepareSession(client);
        const house = await generateTree(client, TREE, times, context.log);
        const admins = await step(
          times,
          `${(TREE.superAgencies + TREE.agencies + TREE.tenants).toLocaleString('en-US')} admins`,
          context.log,
          () => insertAdmins(client),
        );
        await generateAudit(client, house, times, context.log);
        await step(times, 'vacuum analyze', context.log, () => client.query('vacuum analyze audit_log, organizations, users'));
        const { rows: anchors } = await client.query<ActivityAnchor>(
          `select id, path, org_type from organizations where id in ($1, ${ids.tenant('0')}) order by org_type = 'tenant'`,
          [house.id],
        );
        return { house, admins, houseAnchor: anchors[0]!, tenant: anchors[1]! };
      });
      times.total = round((performance.now() - started) / 1000, 1);
      context.log(`generated in ${times.total} s`);

      // Half-way down the whole tree, newest first: the id of the last row of the page before.
      const deepPage = Math.floor(ROWS / 2 / PAGE);
      const deepCursor = await withClient(url, async (client) => {
        const { rows } = await client.query<{ id: string }>(
          `select id::text from audit_log order by created_at desc, id desc offset $1 limit 1`,
          [deepPage * PAGE - 1],
        );
        return rows[0]!.id;
      });

      const houseToken = await signIn(server, BENCH_ADMIN);
      const tenantToken = await signIn(server, TENANT_ADMIN);
      const tenantActor = setup.admins.tenant0;
      const cases: {
        name: string;
        path: string;
        token: string;
        anchor: ActivityAnchor;
        params: Partial<ActivityParams>;
        cursor?: string;
      }[] = [
        { name: 'house admin: first page (whole tree)', path: '', token: houseToken, anchor: setup.houseAnchor, params: {} },
        {
          name: `house admin: page ${(deepPage + 1).toLocaleString('en-US')} of the whole tree (cursor)`,
          path: `cursor=${deepCursor}`,
          token: houseToken,
          anchor: setup.houseAnchor,
          params: {},
          cursor: deepCursor,
        },
        {
          name: "house admin: one tenant's first page",
          path: `organization_id=${setup.tenant.id}`,
          token: houseToken,
          anchor: setup.tenant,
          params: {},
        },
        {
          name: 'house admin: whole tree, action=credits.allocate (10 %)',
          path: 'action=credits.allocate',
          token: houseToken,
          anchor: setup.houseAnchor,
          params: { action: 'credits.allocate' },
        },
        {
          name: 'house admin: whole tree, action=api_key.create (5 %)',
          path: 'action=api_key.create',
          token: houseToken,
          anchor: setup.houseAnchor,
          params: { action: 'api_key.create' },
        },
        {
          name: 'house admin: whole tree, actor = one tenant admin',
          path: `actor_user_id=${tenantActor}`,
          token: houseToken,
          anchor: setup.houseAnchor,
          params: { actor_user_id: tenantActor },
        },
        {
          name: "house admin: one tenant's first page, action=credits.allocate",
          path: `organization_id=${setup.tenant.id}&action=credits.allocate`,
          token: houseToken,
          anchor: setup.tenant,
          params: { action: 'credits.allocate' },
        },
        { name: 'tenant admin: own first page', path: '', token: tenantToken, anchor: setup.tenant, params: {} },
      ];

      const durationSeconds = context.durationSeconds ?? 10;
      const rows: Row[] = [];
      for (const c of cases) {
        context.log(c.name);
        rows.push(
          await measure(server, {
            name: c.name,
            method: 'GET',
            path: `/api/activity${c.path ? `?${c.path}` : ''}`,
            headers: { authorization: `Bearer ${c.token}` },
            connections: 10,
            durationSeconds,
          }),
        );
      }

      context.log('EXPLAIN (ANALYZE, BUFFERS)');
      // Kysely here only compiles the server's own page query; the pool is never used.
      const pool = new pg.Pool({ connectionString: url, max: 1 });
      const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
      const plans = await withClient(url, async (client) => {
        const list: Plan[] = [];
        for (const c of cases) {
          const compiled = activityPageQuery(c.anchor, { include_subtree: true, ...c.params }, c.cursor, PAGE).compile(db);
          list.push(await explain(client, c.name, compiled.sql, [...compiled.parameters]));
        }
        return list;
      }).finally(() => db.destroy());

      return {
        status: 'ok',
        rows,
        tables: [
          { title: 'Page queries (EXPLAIN ANALYZE on the same database, after the runs)', columns: PLAN_COLUMNS, rows: plans.map(planRow) },
        ],
        notes: [
          `Generation on ${server.database}: ${Object.entries(times)
            .map(([k, v]) => `${k} ${v} s`)
            .join(', ')}.`,
          ...plans.map((p) => `${p.name}: ${p.scans.join(', ')}; ${p.executionMs} ms.`),
        ],
        details: { tree: TREE, rows: ROWS, page: PAGE, deepPage, deepCursor, tenant: setup.tenant, generationSeconds: times, plans },
      };
    });
  },
};

const userId = (kind: string, n: string) => `pg_temp.bench_uuid('u${kind}' || (${n}))`;

/** One admin per super agency, agency and tenant, with the same password. */
async function insertAdmins(client: pg.Client) {
  const hash = await hashPassword(PASSWORD);
  const levels: [string, string, number, (n: string) => string][] = [
    ['sa', 'super_agency_admin', TREE.superAgencies, ids.superAgency],
    ['ag', 'agency_admin', TREE.agencies, ids.agency],
    ['tn', 'tenant_admin', TREE.tenants, ids.tenant],
  ];
  for (const [kind, role, count, org] of levels) {
    await client.query(
      `insert into users (id, email, password_hash, first_name, last_name, role, organization_id)
       select ${userId(kind, 'n')}, '${kind}-' || n || '@activity.bench.test', $1, 'Admin', '${kind.toUpperCase()} ' || n, '${role}', ${org('n')}
       from generate_series(0::bigint, ${count - 1}::bigint) n`,
      [hash],
    );
  }
  const { rows } = await client.query<{ id: string }>(`select ${userId('tn', '0')} as id`);
  return { tenant0: rows[0]!.id };
}

/**
 * The audit rows, in time order (so ids follow created_at), CHUNK a statement by INSERT ...
 * SELECT over generate_series, with audit_log's secondary indexes dropped meanwhile and built
 * again afterwards, and its foreign keys not checked row by row (session_replication_role =
 * replica) but once at the end, by one query. Row i's organization and level come from hashes
 * of i; its actor is that organization's admin (the house admin on the house), none for key
 * usage reports.
 */
async function generateAudit(client: pg.Client, house: House, times: Record<string, number>, log: (m: string) => void) {
  const { superAgencies: S, agencies: A, tenants: T } = TREE;
  const start = new Date(Date.now() - 366 * DAY * 1000).toISOString();
  const stepSeconds = (365 * DAY) / ROWS;
  const actions = ACTIONS.flatMap(([action, share]) => Array<string>(share).fill(action));
  const h = (salt: number) => `((hashint8(i * 7 + ${salt})::bigint + 2147483648) % 1000000)`;
  const indexes = (
    await client.query<{ indexname: string; indexdef: string }>(
      `select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename = 'audit_log'
       and indexname not in (select conname from pg_constraint where conrelid = 'audit_log'::regclass)`,
    )
  ).rows;
  await step(times, `drop ${indexes.length} audit_log indexes`, log, async () => {
    for (const index of indexes) await client.query(`drop index ${index.indexname}`);
  });
  await client.query(`set session_replication_role = replica`);
  try {
    const started = performance.now();
    for (let from = 0; from < ROWS; from += CHUNK) {
      const to = Math.min(ROWS, from + CHUNK) - 1;
      await client.query(
        `insert into audit_log (actor_user_id, organization_id, action, target_type, target_id, details, ip, created_at)
         select case when x.action = 'usage.reported' then null else x.actor end, x.org, x.action,
                case when x.action like 'credits.%' or x.action like 'billing.%' then 'organization'
                     when x.action = 'usage.reported' or x.action = 'api_key.create' then 'api_key' else 'user' end,
                case when x.action like 'credits.%' or x.action like 'billing.%' then x.org::text
                     when x.action = 'usage.reported' or x.action = 'api_key.create' then null else x.actor::text end,
                case x.action
                  when 'credits.allocate' then jsonb_build_object('amount', ((i % 9000) + 100)::text || '.00', 'notes', 'bench')
                  when 'credits.adjust_increase' then jsonb_build_object('amount', ((i % 500) + 1)::text || '.00', 'reason', 'bench')
                  when 'usage.reported' then jsonb_build_object('key_name', 'bench runtime', 'accepted', 1000, 'credits_charged', '13.70')
                  when 'billing.agent_limit' then jsonb_build_object('before', i % 10, 'after', i % 10 + 1)
                  when 'invitation.create' then jsonb_build_object('email', 'invitee-' || i || '@bench.test', 'role', 'tenant_user')
                  when 'api_key.create' then jsonb_build_object('name', 'key ' || i)
                  else '{}'::jsonb end,
                '10.' || (i % 250) || '.' || (i / 250 % 250) || '.' || (i % 7),
                $1::timestamptz + make_interval(secs => i * $2::float8)
         from generate_series($3::bigint, $4::bigint) i
         cross join lateral (select ${h(1)} % 100 as level, ${h(2)} as pick, ($5::text[])[1 + ${h(3)} % ${actions.length}] as action) r
         cross join lateral (select r.action,
           case when r.level < 2 then '${house.id}'::uuid
                when r.level < 5 then ${ids.superAgency(`r.pick % ${S}`)}
                when r.level < 15 then ${ids.agency(`r.pick % ${A}`)}
                else ${ids.tenant(`r.pick % ${T}`)} end as org,
           case when r.level < 2 then '${house.adminId}'::uuid
                when r.level < 5 then ${userId('sa', `r.pick % ${S}`)}
                when r.level < 15 then ${userId('ag', `r.pick % ${A}`)}
                else ${userId('tn', `r.pick % ${T}`)} end as actor) x`,
        [start, stepSeconds, from, to, actions],
      );
      log(
        `  audit rows ${(to + 1).toLocaleString('en-US')} / ${ROWS.toLocaleString('en-US')} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
      );
    }
    times[`${ROWS.toLocaleString('en-US')} audit rows`] = round((performance.now() - started) / 1000, 1);
  } finally {
    await client.query(`set session_replication_role = origin`);
    for (const index of indexes) {
      await step(times, `build ${index.indexname}`, log, () => client.query(index.indexdef));
    }
  }
  await step(times, 'check the foreign keys of every row', log, async () => {
    const { rows } = await client.query<{ bad: number }>(`
      select count(*)::int as bad from audit_log a
      where (a.actor_user_id is not null and not exists (select 1 from users u where u.id = a.actor_user_id))
         or (a.organization_id is not null and not exists (select 1 from organizations o where o.id = a.organization_id))`);
    if (rows[0]!.bad !== 0) throw new Error(`${rows[0]!.bad} generated audit rows name a person or organization that does not exist`);
  });
}
