import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { reconcile } from '../../apps/server/src/modules/credits/reconcile.ts';
import type { DB } from '../../apps/server/src/db/schema.ts';
import { HTTP_COLUMNS, measure, signIn } from '../lib/http.ts';
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
const TOTAL = 1_000_000;
/** Events on the hot agency (agency 0): 60 % consumption, 10 % refunds, 30 % allocations to its tenants. */
const HOT_EVENTS = 320_000;
const PAGE = 20;
const DEEP_PAGES = 1_000;
const DAY = 86_400;

export const ledger: Suite = {
  name: 'ledger',
  title: 'Credit ledger with a million entries',
  about:
    '1,000,000 `credit_ledger_entries` generated in SQL on PostgreSQL (PostgreSQL only) over a ' +
    'tree of 2,111 organizations: funding allocations down the tree, then a year of consumption, ' +
    'refunds and allocations. One agency holds 320,021 of the entries. Every balance equals the ' +
    "sum of its entries and `balance_after` is the running sum (a window function), so the server's " +
    'reconciliation passes (checked after generation). Each row is `GET /api/credits/ledger` for ' +
    'that agency, 20 entries a page, signed in as the house admin, 10 connections: the first page; ' +
    'page 1,001 (the cursor, the `seq` of the last entry of page 1,000, taken by SQL); the last ' +
    'page (16,000 pages deep); the first page filtered by entry type (refunds, 10 % of its ' +
    'entries); and the first page of a 30-day range in the middle of the history. The second table ' +
    'is `EXPLAIN (ANALYZE, BUFFERS)` of the page query the server runs for the same cases.',
  columns: HTTP_COLUMNS,
  async run(context) {
    if (!context.databaseUrl) {
      return { status: 'skipped', reason: 'needs PostgreSQL (set DATABASE_URL): PGlite cannot hold a million ledger entries quickly' };
    }
    return withServer('postgresql', context, async (server) => {
      const url = server.databaseUrl!;
      const times: Record<string, number> = {};
      context.log(`generating ${TOTAL.toLocaleString('en-US')} ledger entries on ${server.database}`);
      const started = performance.now();
      const setup = await withClient(url, async (client) => {
        await prepareSession(client);
        const house = await generateTree(client, TREE, times, context.log);
        const generated = await generateLedger(client, house, times, context.log);
        await step(times, 'vacuum analyze', context.log, () =>
          client.query('vacuum analyze credit_ledger_entries, organization_billing_settings, organizations'),
        );
        return { house, ...generated };
      });
      times.total = Math.round((performance.now() - started) / 100) / 10;
      context.log(`generated in ${times.total} s`);

      const books = await step(times, 'reconciliation (reconcile(db))', context.log, () => reconcileOn(url));
      if (!books.ok) throw new Error(`generated ledger does not reconcile: ${JSON.stringify(books).slice(0, 500)}`);

      const { hot } = setup;
      const cursors = await withClient(url, async (client) => {
        const at = async (offset: number) =>
          (
            await client.query<{ seq: string }>(
              `select seq::text from credit_ledger_entries where organization_id = $1 order by created_at desc, seq desc offset $2 limit 1`,
              [hot.id, offset],
            )
          ).rows[0]!.seq;
        const count = hot.entries;
        return { deep: await at(DEEP_PAGES * PAGE - 1), last: await at(Math.floor((count - 1) / PAGE) * PAGE - 1) };
      });
      const lastPage = Math.floor((hot.entries - 1) / PAGE) + 1;
      const range = { from: dateOnly(setup.start, 180), to: dateOnly(setup.start, 209) };

      const token = await signIn(server, BENCH_ADMIN);
      const durationSeconds = context.durationSeconds ?? 10;
      const base = `/api/credits/ledger?organization_id=${hot.id}`;
      const cases: [string, string][] = [
        ['first page', base],
        [`page ${(DEEP_PAGES + 1).toLocaleString('en-US')} (cursor)`, `${base}&cursor=${cursors.deep}`],
        [`last page (${lastPage.toLocaleString('en-US')}, cursor)`, `${base}&cursor=${cursors.last}`],
        ['entry_type=refund, first page', `${base}&entry_type=refund`],
        [`from ${range.from} to ${range.to}, first page`, `${base}&from=${range.from}&to=${range.to}`],
        // The dashboard reads the same books: usage, history and totals by entry type.
        ['dashboard (GET /api/dashboard) of that agency', `/api/dashboard?organization_id=${hot.id}`],
      ];
      const rows: Row[] = [];
      for (const [name, path] of cases) {
        context.log(name);
        rows.push(
          await measure(server, {
            name: `${name.startsWith('dashboard') ? '' : 'ledger of '}the agency with ${hot.entries.toLocaleString('en-US')} entries: ${name}`,
            method: 'GET',
            path,
            headers: { authorization: `Bearer ${token}` },
            connections: 10,
            durationSeconds,
          }),
        );
      }

      context.log('EXPLAIN (ANALYZE, BUFFERS)');
      const plans = await withClient(url, async (client) => {
        const page = (extra: string) => `
          select * from credit_ledger_entries where organization_id = $1 ${extra}
          order by created_at desc, seq desc limit ${PAGE + 1}`;
        const cursor = `and (created_at, seq) < (select c.created_at, c.seq from credit_ledger_entries c where c.seq = $2::bigint)`;
        const list: Plan[] = [];
        list.push(await explain(client, 'first page', page(''), [hot.id]));
        list.push(await explain(client, `page ${DEEP_PAGES + 1}`, page(cursor), [hot.id, cursors.deep]));
        list.push(await explain(client, `last page`, page(cursor), [hot.id, cursors.last]));
        list.push(await explain(client, 'entry_type=refund', page('and entry_type = $2'), [hot.id, 'refund']));
        const to = new Date(`${range.to}T00:00:00Z`);
        to.setUTCDate(to.getUTCDate() + 1);
        list.push(
          await explain(client, '30-day range', page('and created_at >= $2 and created_at < $3'), [
            hot.id,
            new Date(`${range.from}T00:00:00Z`),
            to,
          ]),
        );
        return list;
      });
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
          `Reconciliation of the generated books: ${books.ok ? 'passed' : 'FAILED'} (${books.organizations_checked.toLocaleString('en-US')} organizations, ` +
            `${books.balance_mismatches.length} balance mismatches, ${books.unbalanced_groups.length} unbalanced transaction groups).`,
          ...plans.map((p) => `${p.name}: ${p.scans.join(', ')}; ${p.executionMs} ms.`),
        ],
        details: {
          tree: TREE,
          entries: TOTAL,
          hotOrganization: hot,
          cursors,
          range,
          generationSeconds: times,
          reconciliation: { ok: books.ok, organizations_checked: books.organizations_checked },
          plans,
        },
      };
    });
  },
};

function dateOnly(start: Date, days: number): string {
  return new Date(start.getTime() + days * DAY * 1000).toISOString().slice(0, 10);
}

export async function reconcileOn(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  try {
    return await reconcile(db);
  } finally {
    await db.destroy();
  }
}

/**
 * The entries, staged in a temporary table by a few INSERT ... SELECT over generate_series,
 * get their running balance from a window function and go into credit_ledger_entries in
 * time order (so `seq` follows `created_at`), 200,000 a statement.
 *
 * Amounts: tenants get 100,000.00 each, agencies 12,000,000.00, super agencies 120,000,000.00
 * and the house 1,200,000,000.00 (an adjustment), more than anything spent below, so no
 * balance ever goes below zero. Allocation pairs share their transaction group and net to zero.
 */
async function generateLedger(client: pg.Client, house: House, times: Record<string, number>, log: (m: string) => void) {
  const { superAgencies: S, agencies: A, tenants: T } = TREE;
  const tenantFunds = 100_000;
  const agencyFunds = 12_000_000;
  const saFunds = agencyFunds * (A / S);
  const houseFunds = saFunds * S;
  const funding = 1 + 2 * (S + A + T);
  const hotPairs = (HOT_EVENTS * 3) / 10;
  const rest = TOTAL - funding - HOT_EVENTS - hotPairs;
  const start = new Date(Date.now() - 400 * DAY * 1000);
  const t0 = start.toISOString();
  const hotStep = (365 * DAY) / HOT_EVENTS;
  const restStep = (365 * DAY) / rest;
  const admin = `'${house.adminId}'::uuid`;

  await step(times, 'stage 1,000,000 entries (temporary table)', log, async () => {
    await client.query(`
      create temp table bench_ledger (
        ord bigint not null, organization_id uuid not null, amount numeric(16, 2) not null, entry_type text not null,
        transaction_group uuid not null, metadata jsonb not null, created_at timestamptz not null)`);
    const at = (seconds: string) => `'${t0}'::timestamptz + make_interval(secs => ${seconds})`;
    // Funding: an adjustment on the house, then one allocation per parent and child, level by level.
    await client.query(`
      insert into bench_ledger values (0, '${house.id}', ${houseFunds}, 'adjustment_increase', pg_temp.bench_uuid('adj'),
        '{"reason": "bench funding", "notes": "bench funding"}', ${at('0')})`);
    const pairs = (level: number, count: number, parent: (n: string) => string, child: (n: string) => string, amount: number) =>
      client.query(`
        insert into bench_ledger
        select ${level} * 100000 + n * 2 + x.side, x.org, x.amount, x.type, pg_temp.bench_uuid('f${level}-' || n), x.meta, ${at(String(level))}
        from generate_series(0::bigint, ${count - 1}::bigint) n
        cross join lateral (values
          (0, ${parent('n')}, -${amount}::numeric, 'allocation_sent', jsonb_build_object('notes', 'bench funding', 'to_org_id', ${child('n')}, 'allocated_by_user_id', ${admin})),
          (1, ${child('n')}, ${amount}::numeric, 'allocation_received', jsonb_build_object('notes', 'bench funding', 'from_org_id', ${parent('n')}, 'allocated_by_user_id', ${admin}))
        ) x(side, org, amount, type, meta)`);
    await pairs(1, S, () => `'${house.id}'::uuid`, ids.superAgency, saFunds);
    await pairs(2, A, (n) => ids.superAgency(`${n} % ${S}`), ids.agency, agencyFunds);
    await pairs(3, T, (n) => ids.agency(`${n} % ${A}`), ids.tenant, tenantFunds);
    // The hot agency (agency 0): consumption, refunds, and allocations to its 20 tenants (t = 0, A, 2A, ...).
    const hot = ids.agency('0');
    await client.query(`
      insert into bench_ledger
      select 10000000 + i * 2 + x.side, x.org, x.amount, x.type, pg_temp.bench_uuid('h' || i), x.meta, ${at(`86400 + i * ${hotStep}`)}
      from generate_series(0::bigint, ${HOT_EVENTS - 1}::bigint) i
      cross join lateral (select case when i % 10 < 6 then 'consumption' when i % 10 = 6 then 'refund' else 'allocation_sent' end as kind,
                                 ${ids.tenant(`${A} * (i % ${T / A})`)} as tenant,
                                 (((i * 13) % 4500) + 500) / 100.0 as allocated) k
      cross join lateral (values
        (0, ${hot}, case k.kind when 'consumption' then -(((i * 7919) % 1000) + 1) / 100.0
                                when 'refund' then ((i * 31) % 500 + 1) / 100.0 else -k.allocated end,
         k.kind,
         case k.kind when 'allocation_sent' then jsonb_build_object('notes', null, 'to_org_id', k.tenant, 'allocated_by_user_id', ${admin})
                     else jsonb_build_object('usage', jsonb_build_object('minutes', i % 600, 'source', 'bench')) end),
        (1, k.tenant, k.allocated, 'allocation_received', jsonb_build_object('notes', null, 'from_org_id', ${hot}, 'allocated_by_user_id', ${admin}))
      ) x(side, org, amount, type, meta)
      where x.side = 0 or k.kind = 'allocation_sent'`);
    // Everyone else: consumption and refunds on the tenants, round robin.
    await client.query(`
      insert into bench_ledger
      select 20000000 + j, ${ids.tenant(`j % ${T}`)},
             case when j % 5 < 4 then -(((j * 7919) % 1000) + 1) / 100.0 else ((j * 37) % 500 + 1) / 100.0 end,
             case when j % 5 < 4 then 'consumption' else 'refund' end,
             pg_temp.bench_uuid('r' || j),
             jsonb_build_object('usage', jsonb_build_object('minutes', j % 600, 'source', 'bench')),
             ${at(`86400.25 + j * ${restStep}`)}
      from generate_series(0::bigint, ${rest - 1}::bigint) j`);
    const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from bench_ledger`);
    if (rows[0]!.n !== TOTAL) throw new Error(`staged ${rows[0]!.n} entries, expected ${TOTAL}`);
  });

  await step(times, 'running balances (window function)', log, () =>
    client.query(`
      create temp table bench_ledger_final as
      select s.*, sum(amount) over (partition by organization_id order by created_at, ord rows between unbounded preceding and current row) as balance_after,
             row_number() over (order by created_at, ord) as rn
      from bench_ledger s`),
  );

  const batch = 200_000;
  const insertStarted = performance.now();
  for (let from = 1; from <= TOTAL; from += batch) {
    const to = Math.min(TOTAL, from + batch - 1);
    await client.query(`
      insert into credit_ledger_entries (organization_id, amount, entry_type, transaction_group, metadata, balance_after, created_by, created_at)
      select organization_id, amount, entry_type, transaction_group, metadata, balance_after, ${admin}, created_at
      from bench_ledger_final where rn between ${from} and ${to} order by rn`);
    log(
      `  entries ${to.toLocaleString('en-US')} / ${TOTAL.toLocaleString('en-US')} (${((performance.now() - insertStarted) / 1000).toFixed(0)} s)`,
    );
  }
  times['insert 1,000,000 entries'] = Math.round((performance.now() - insertStarted) / 100) / 10;

  await step(times, 'balances = sum of entries', log, () =>
    client.query(`
      update organization_billing_settings b set credit_balance = s.total, updated_at = now()
      from (select organization_id, sum(amount) as total from credit_ledger_entries group by organization_id) s
      where b.organization_id = s.organization_id`),
  );
  await client.query('drop table bench_ledger, bench_ledger_final');
  const { rows } = await client.query<{ id: string; entries: number }>(
    `select organization_id as id, count(*)::int as entries from credit_ledger_entries group by organization_id order by 2 desc limit 1`,
  );
  return { hot: rows[0]!, start: new Date(start.getTime() + DAY * 1000) };
}
