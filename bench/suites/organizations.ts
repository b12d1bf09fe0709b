import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { TREE_DESCENDANT_COUNT_CAP, type ListOrganizationsParams } from '@console/domain';
import { hashPassword } from '../../apps/server/src/lib/secrets.ts';
import { listPage, listQuery } from '../../apps/server/src/modules/organizations/list.ts';
import { BOUNDARY_DAYS, organizationQueries } from '../../apps/server/src/modules/dashboard/organization-figures.ts';
import type { DB } from '../../apps/server/src/db/schema.ts';
import { HTTP_COLUMNS, measure, signIn } from '../lib/http.ts';
import { BENCH_ADMIN, withServer } from '../lib/server.ts';
import {
  PLAN_COLUMNS,
  SEARCH_WORD,
  explain,
  generateTree,
  ids,
  insertUser,
  planRow,
  prepareSession,
  step,
  type Plan,
  type TreeSpec,
} from '../lib/sql.ts';
import { withClient } from '../../support/postgres.ts';
import type { Row, Suite } from '../lib/types.ts';

/** 1 house + 100 + 10,000 + 989,899 = 1,000,000 organizations; 98 or 99 tenants per agency. */
const TREE: TreeSpec = { superAgencies: 100, agencies: 10_000, tenants: 989_899 };
const AGENCY_ADMIN = { email: 'agency-admin@bench.test', password: 'bench agency admin password' };

export const organizations: Suite = {
  name: 'organizations',
  title: 'Organization lists on a million organizations',
  about:
    'A tree of 1,000,000 organizations (1 house, 100 super agencies, 10,000 agencies, 989,899 ' +
    'tenants, each with billing settings), generated in SQL on PostgreSQL; PostgreSQL only. ' +
    'Each row is one list call at 10 connections, signed in as the house admin unless it says ' +
    '"agency admin": the house\'s children (100 super agencies, first page of 50), an agency\'s ' +
    "children (98 or 99 tenants), a name search among a super agency's ~10,000 descendants, " +
    'the first page of the descendants of a super agency and of an agency, and one level of the ' +
    'Hierarchy view for the house (its children with their child counts, and the count of its ' +
    'descendants, which stops at 10,000: "10,000+"), and the dashboard (GET /api/dashboard) of ' +
    'the house, a super agency and an agency, which reads the maintained subtree counts. ' +
    'Organizations are created at times spread over two years, and 5% of the tenants are ' +
    'inactive and 2% suspended. Every list call also counts its total. The second table is ' +
    '`EXPLAIN (ANALYZE, BUFFERS)` of the queries behind these calls (the list queries are the ' +
    "server's own `listQuery`, bound as the server binds them) and of the descendant query by " +
    'path prefix against a recursive CTE over `parent_org_id` for the same organization, and of ' +
    "the dashboard's own organization queries; the " +
    'plan texts are in `bench/results/organizations.json`.',
  columns: HTTP_COLUMNS,
  async run(context) {
    if (!context.databaseUrl) {
      return { status: 'skipped', reason: 'needs PostgreSQL (set DATABASE_URL): PGlite cannot hold a million organizations quickly' };
    }
    return withServer('postgresql', context, async (server) => {
      const url = server.databaseUrl!;
      const times: Record<string, number> = {};
      context.log(
        `generating ${(1 + TREE.superAgencies + TREE.agencies + TREE.tenants).toLocaleString('en-US')} organizations on ${server.database}`,
      );
      const generationStarted = performance.now();
      const setup = await withClient(url, async (client) => {
        await prepareSession(client);
        const house = await generateTree(client, TREE, times, context.log);
        const [{ rows: sa }, { rows: agency }] = await Promise.all([
          client.query<{ id: string; path: string }>(`select id, path from organizations where id = ${ids.superAgency('7')}`),
          client.query<{ id: string; path: string }>(`select id, path from organizations where id = ${ids.agency('4242')}`),
        ]);
        const agencyAdmin = await insertUser(client, {
          email: AGENCY_ADMIN.email,
          passwordHash: await hashPassword(AGENCY_ADMIN.password),
          role: 'agency_admin',
          organizationId: agency[0]!.id,
        });
        // Some tenants inactive or suspended, in one bulk update (the counts' triggers run).
        await step(times, 'tenants: 5% inactive, 2% suspended', context.log, () =>
          client.query(`
            update organizations set status = case when abs(hashtext('st' || id::text)::bigint) % 100 < 5 then 'inactive' else 'suspended' end
            where org_type = 'tenant' and abs(hashtext('st' || id::text)::bigint) % 100 < 7`),
        );
        await step(times, 'vacuum analyze', context.log, () =>
          client.query('vacuum analyze organizations, organization_billing_settings, organization_subtree_counts, users'),
        );
        return { house, superAgency: sa[0]!, agency: agency[0]!, agencyAdmin };
      });
      times.total = Math.round((performance.now() - generationStarted) / 100) / 10;
      context.log(`generated in ${times.total} s`);

      const { house, superAgency, agency } = setup;
      const houseToken = await signIn(server, BENCH_ADMIN);
      const agencyToken = await signIn(server, AGENCY_ADMIN);
      const durationSeconds = context.durationSeconds ?? 10;
      const get = (name: string, path: string, token: string) => {
        context.log(name);
        return measure(server, {
          name,
          method: 'GET',
          path,
          headers: { authorization: `Bearer ${token}` },
          connections: 10,
          durationSeconds,
        });
      };
      const rows: Row[] = [];
      rows.push(await get('house children (100), page 1', '/api/organizations', houseToken));
      rows.push(await get('agency children (99)', `/api/organizations?organization_id=${agency.id}`, houseToken));
      rows.push(await get('agency children (99), agency admin', '/api/organizations', agencyToken));
      rows.push(
        await get(
          `search "${SEARCH_WORD}" in super agency descendants`,
          `/api/organizations?view=descendants&organization_id=${superAgency.id}&search=${SEARCH_WORD}`,
          houseToken,
        ),
      );
      rows.push(
        await get(
          'super agency descendants (~10,000), page 1',
          `/api/organizations?view=descendants&organization_id=${superAgency.id}`,
          houseToken,
        ),
      );
      rows.push(
        await get('agency descendants (99), page 1', `/api/organizations?view=descendants&organization_id=${agency.id}`, houseToken),
      );
      rows.push(await get('tree: house (100 children, 999,999 descendants)', '/api/organizations/tree', houseToken));
      // The dashboard counts a whole subtree by status and type.
      rows.push(await get('dashboard: house (999,999 descendants)', '/api/dashboard', houseToken));
      rows.push(await get('dashboard: super agency (~10,000 descendants)', `/api/dashboard?organization_id=${superAgency.id}`, houseToken));
      rows.push(await get('dashboard: agency, agency admin', '/api/dashboard', agencyToken));

      context.log('EXPLAIN (ANALYZE, BUFFERS)');
      const plans = await withClient(url, (client) => explainAll(client, url, { house, superAgency, agency }));
      const notes = planNotes(plans);
      return {
        status: 'ok',
        rows,
        tables: [
          { title: 'Query plans (EXPLAIN ANALYZE on the same database, after the runs)', columns: PLAN_COLUMNS, rows: plans.map(planRow) },
        ],
        notes: [
          `Generation on ${server.database}: ${Object.entries(times)
            .map(([k, v]) => `${k} ${v} s`)
            .join(', ')}.`,
          ...notes,
        ],
        details: {
          tree: TREE,
          generationSeconds: times,
          organizations: { house: house.id, superAgency: superAgency.id, agency: agency.id },
          plans,
        },
      };
    });
  },
};

async function explainAll(
  client: pg.Client,
  url: string,
  orgs: { house: { id: string; path: string }; superAgency: { id: string; path: string }; agency: { id: string; path: string } },
): Promise<Plan[]> {
  // Kysely here only compiles the server's own query builders; the pool is never used.
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  try {
    const plans: Plan[] = [];
    const list = async (name: string, anchor: { id: string; path: string }, params: Partial<ListOrganizationsParams>) => {
      const full: ListOrganizationsParams = { view: 'children', page: 1, page_size: 50, sort: 'name', order: 'asc', ...params };
      const page = listPage(db, anchor, full).compile();
      const count = listQuery(db, anchor, full).select(sql<number>`count(*)::int`.as('n')).compile();
      plans.push(await explain(client, `${name}: page`, page.sql, [...page.parameters]));
      plans.push(await explain(client, `${name}: count`, count.sql, [...count.parameters]));
    };
    const descendants = `select id from organizations where path like $1 and deleted_at is null`;
    const recursive = `
      with recursive d as (
        select id from organizations where id = $1 and deleted_at is null
        union all
        select o.id from organizations o join d on o.parent_org_id = d.id where o.deleted_at is null
      ) select id from d`;
    // Warm the caches once so both forms are compared on the same footing.
    await client.query(descendants, [`${orgs.superAgency.path}%`]);
    plans.push(await explain(client, 'descendants of a super agency, path prefix', descendants, [`${orgs.superAgency.path}%`]));
    plans.push(await explain(client, 'descendants of a super agency, recursive CTE', recursive, [orgs.superAgency.id]));
    plans.push(await explain(client, 'descendants of an agency, path prefix', descendants, [`${orgs.agency.path}%`]));
    plans.push(await explain(client, 'descendants of an agency, recursive CTE', recursive, [orgs.agency.id]));
    await list('house children', orgs.house, {});
    await list('agency children', orgs.agency, {});
    await list(`search "${SEARCH_WORD}" in super agency descendants`, orgs.superAgency, { view: 'descendants', search: SEARCH_WORD });
    await list('super agency descendants', orgs.superAgency, { view: 'descendants' });
    await list('agency descendants', orgs.agency, { view: 'descendants' });
    plans.push(
      await explain(
        client,
        'tree: count of the house descendants, up to the cap',
        `select count(*)::int as n from (select 1 from organizations where path like $1 and id <> $2 and deleted_at is null limit $3) capped`,
        [`${orgs.house.path}%`, orgs.house.id, TREE_DESCENDANT_COUNT_CAP + 1],
      ),
    );
    // The dashboard's organization figures, the server's own query builders.
    const ago = Object.fromEntries(BOUNDARY_DAYS.map((days) => [days, new Date(Date.now() - days * 86_400_000).toISOString()]));
    for (const [name, anchor] of [
      ['house', orgs.house],
      ['super agency', orgs.superAgency],
    ] as const) {
      const queries = organizationQueries(db, anchor, ago);
      for (const [part, query] of Object.entries(queries)) {
        const compiled = query.compile();
        plans.push(await explain(client, `dashboard of the ${name}: ${part}`, compiled.sql, [...compiled.parameters]));
      }
    }
    return plans;
  } finally {
    await db.destroy();
  }
}

const INDEX_SCAN = /^(Index Only Scan|Index Scan|Bitmap Index Scan)/;

function planNotes(plans: Plan[]): string[] {
  return plans.map((plan) => {
    const indexes = plan.scans.filter((s) => INDEX_SCAN.test(s));
    const seq = plan.scans.filter((s) => s.startsWith('Seq Scan') || s.startsWith('Parallel Seq Scan'));
    const verdict = indexes.length ? `index used (${indexes.join(', ')})` : 'no index used';
    return `${plan.name}: ${verdict}${seq.length ? `; also ${seq.join(', ')}` : ''}; ${plan.executionMs} ms.`;
  });
}
