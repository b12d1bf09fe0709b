import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type pg from 'pg';
import { generateKey } from '../../apps/server/src/lib/api-key.ts';
import { withClient } from '../../support/postgres.ts';
import { withFreshPostgres } from '../lib/databases.ts';
import { HTTP_COLUMNS, call, measure, round, signIn } from '../lib/http.ts';
import { pgbenchScript } from '../lib/pgbench.ts';
import { BENCH_ADMIN, withServer, withServerOn, type BenchServer } from '../lib/server.ts';
import { PLAN_COLUMNS, explain, generateTree, ids, planRow, prepareSession, step, type Plan, type TreeSpec } from '../lib/sql.ts';
import type { Row, Suite } from '../lib/types.ts';
import { PGBENCH, pgbench } from './allocations.ts';
import { reconcileOn } from './ledger.ts';
import { GRANTED, grantedTree } from './usage-grants.ts';

const run = promisify(execFile);

/** The 1,000 tenants are the metered organizations. */
export const TREE: TreeSpec = { superAgencies: 10, agencies: 100, tenants: 1_000 };
/**
 * The marked-up tree, beside it under the same house: 1,000 more tenants under 10 agencies
 * under 2 super agencies (agency a under super agency a % 2, tenant t under agency t % 10),
 * where each super agency's book is the catalog price + 20 % and each agency's book its super
 * agency's price + 25 % (rounded to the books' 4 decimals): three levels of price.
 */
const MARKUP = { superAgencies: 2, agencies: 10, tenants: 1_000, superAgencyMarkup: 1.2, agencyMarkup: 1.25 } as const;
export const BATCH = 1_000;
export const BATCH_CONNECTIONS = 8;
const SINGLE_CONNECTIONS = 16;
const ENTITLEMENT_CONNECTIONS = 50;
/** The size of the consumption ledger whose pages are read (BENCH_USAGE_LEDGER changes it). */
const LEDGER_ENTRIES = Number(process.env.BENCH_USAGE_LEDGER ?? 10_000_000);
const LEDGER_CHUNK = 1_000_000;
const PAGE = 20;
/** Each event is 1 unit at 0.0137: every one charges 0.01 or 0.02 (the carry decides), so each writes its entry. */
export const PRICE = '0.0137';
export const AGENT = 'bench-bot';
/** The hot tenant's ledger cycles over four agents; the filter reads one of them (a quarter). */
const HOT_AGENTS = [AGENT, 'hot-a', 'hot-b', 'hot-c'];
const DAY = 86_400;

/**
 * What one batch wrote before the ledger was posted per batch, as plain SQL (pgbench runs it):
 * 1,000 consumption entries with agent and units, 1,000 usage events pointing at them, and
 * 1,000 balance updates, with the balance rows locked in id order first. No validation, no
 * prices, no carry, no duplicate check: the first yardstick, for the writes alone.
 */
const SQL_PER_EVENT = `
select nextval('bench_usage_batch') as b \\gset
begin;
select count(*) from (select 1 from organization_billing_settings b where b.organization_id in (select organization_id from bench_usage_orgs) order by b.organization_id for update) l;
with g as (select gen_random_uuid() as id),
e as (
  select o.organization_id, o.n, gen_random_uuid() as entry_id, b.credit_balance - 0.01 as balance_after
  from bench_usage_orgs o join organization_billing_settings b using (organization_id)
),
l as (
  insert into credit_ledger_entries (id, organization_id, amount, entry_type, transaction_group, metadata, balance_after, external_ref, agent_type_id, units)
  select e.entry_id, e.organization_id, -0.01, 'consumption', g.id,
         jsonb_build_object('agent', '${AGENT}', 'units', '1.0000', 'event_id', 'sql-' || :b || '-' || e.n), e.balance_after,
         'sql-' || :b || '-' || e.n, a.id, 1
  from e, g, (select id from agent_types where code = '${AGENT}') a
  order by e.organization_id
  returning id, organization_id, external_ref, agent_type_id
)
insert into usage_events (organization_id, client_event_id, source, agent_type_id, units, price, cost, charged, occurred_at, ledger_entry_id)
select organization_id, external_ref, 'key', agent_type_id, 1, 0.01, 0.01, 0.01, now(), id from l;
update organization_billing_settings b set credit_balance = b.credit_balance - 0.01, updated_at = now()
from bench_usage_orgs o where b.organization_id = o.organization_id;
commit;
`;

/**
 * What one batch of the API writes now, as plain SQL: over `table`'s organizations (1,000, or
 * 10 with 100 events each), one consumption entry per organization, 1,000 usage events linked
 * to them, 1,000 idempotency rows, and one balance update per organization, the balance rows
 * locked in id order first. The second yardstick: the same writes as the engine, without its
 * decisions.
 */
const sqlAggregated = (table: string, perOrg: number) => `
select nextval('bench_usage_batch') as b \\gset
begin;
select count(*) from (select 1 from organization_billing_settings b where b.organization_id in (select organization_id from ${table}) order by b.organization_id for update) l;
with g as (select gen_random_uuid() as id),
e as (
  select o.organization_id, gen_random_uuid() as entry_id, b.credit_balance - ${(perOrg / 100).toFixed(2)} as balance_after
  from ${table} o join organization_billing_settings b using (organization_id)
),
l as (
  insert into credit_ledger_entries (id, organization_id, amount, entry_type, transaction_group, metadata, balance_after, agent_type_id, units)
  select e.entry_id, e.organization_id, -${(perOrg / 100).toFixed(2)}, 'consumption', g.id,
         jsonb_build_object('agent', '${AGENT}', 'events', ${perOrg}, 'units', '${perOrg}.0000', 'price', '0.0100'), e.balance_after, a.id, ${perOrg}
  from e, g, (select id from agent_types where code = '${AGENT}') a
  order by e.organization_id
  returning id, organization_id, agent_type_id
),
ev as (
  insert into usage_events (organization_id, client_event_id, source, agent_type_id, units, price, cost, charged, occurred_at, ledger_entry_id)
  select l.organization_id, 'sqlagg-' || :b || '-' || l.organization_id || '-' || k, 'key', l.agent_type_id, 1, 0.01, 0.01, 0.01, now(), l.id
  from l, generate_series(1, ${perOrg}) k
  returning id, organization_id, client_event_id, occurred_at, charged
)
insert into usage_event_ids (organization_id, source, client_event_id, event_id, occurred_at, charged)
select organization_id, 'key', client_event_id, id, occurred_at, charged from ev order by organization_id, client_event_id;
update organization_billing_settings b set credit_balance = b.credit_balance - ${(perOrg / 100).toFixed(2)}, updated_at = now()
from ${table} o where b.organization_id = o.organization_id;
commit;
`;

/** The two spreads of a batch: over every metered tenant, and over ten of them. */
const SPREADS = [
  { orgs: 1_000, table: 'bench_usage_orgs' },
  { orgs: 10, table: 'bench_usage_orgs10' },
] as const;

export const usage: Suite = {
  name: 'usage',
  title: 'Metered usage: ingestion, entitlements and a consumption ledger',
  about:
    'The machine API on PostgreSQL (PostgreSQL only), with an API key of the house, over 1,000 tenants that each run ' +
    `one agent at ${PRICE} credits a unit. **Batched ingestion**: \`POST /api/v1/usage-events\` with batches of ` +
    `${BATCH.toLocaleString('en-US')} events of 1 unit at ${BATCH_CONNECTIONS} connections, in two spreads: one event for each ` +
    'of the 1,000 tenants (every batch locks 1,000 balance rows) and 100 events for each of 10 tenants. Every event is accepted; ' +
    'the engine writes the events, their ids, one consumption entry per organization (and agent and price) and one balance ' +
    'update per organization, and the carries. Beside each, in the same run and database, two plain SQL scripts run by ' +
    `\`pgbench\` at ${BATCH_CONNECTIONS} clients with no validation, prices or carry: the per-event writes of before (1,000 ` +
    'consumption entries, 1,000 events, 1,000 balance updates; **÷ yardstick**) and the aggregated writes of now (an entry and ' +
    "a balance update per organization, 1,000 events and 1,000 ids; **÷ aggregated SQL**), each ratio the API's events/s " +
    "over the script's. " +
    `**With price books**: in each spread, the same batches (same size, connections, duration, spread) also go to ${MARKUP.tenants.toLocaleString('en-US')} other tenants of the same house and database, under ` +
    `${MARKUP.agencies} agencies under ${MARKUP.superAgencies} super agencies that each keep a book: the super agencies sell ` +
    `at the catalog price + ${Math.round((MARKUP.superAgencyMarkup - 1) * 100)} %, the agencies at their super agency's ` +
    `+ ${Math.round((MARKUP.agencyMarkup - 1) * 100)} % (three levels of price), so each event also reads two books and each ` +
    'batch posts earning entries to its agency and super agency and locks their balance rows. The two runs take turns in ' +
    'halves of the duration, without books, with, with, without (so neither gets the fresher database), each row adding ' +
    "its halves (p50 and p99 the worse half's); **÷ without books** is the events/s with books over those without (aim 0.8). " +
    '**Single events**: one event a request at ' +
    `${SINGLE_CONNECTIONS} connections, beside pgbench TPC-B (scale ${PGBENCH.scale}, ${PGBENCH.clients} clients, ` +
    `${PGBENCH.seconds} s, in a fresh database) as the yardstick (requests/s ÷ its tps). **Entitlements**: ` +
    `\`GET /api/v1/entitlements\` at ${ENTITLEMENT_CONNECTIONS} connections, rotating over the tenants, beside a bare Fastify + pg ` +
    'server running the statements one check sent behind a JWT check (**÷ yardstick**; aims: 0.9, p99 under 20 ms). Single ' +
    'events aim at 0.5 of TPC-B. **Ledger pages**: ' +
    `one tenant given a consumption ledger of ${LEDGER_ENTRIES.toLocaleString('en-US')} entries generated in SQL (four agents in turn, a year of history), ` +
    'read through `GET /api/credits/ledger` as the house admin at 10 connections: the first page, a page half-way down ' +
    '(cursor), and the first and a half-way page filtered by one agent (`agent_type_id`, a quarter of the entries, served ' +
    "by the partial index of entries naming an agent). The server's `reconcile(db)` runs after the ingestion runs.",
  columns: [
    ...HTTP_COLUMNS,
    { key: 'eventsPerSecond', label: 'events/s', format: 'fixed1' },
    { key: 'ratio', label: '÷ yardstick', format: 'fixed2' },
    { key: 'ratioAggregated', label: '÷ aggregated SQL', format: 'fixed2' },
    { key: 'ratioBooks', label: '÷ without books', format: 'fixed2' },
    { key: 'ratioGrants', label: '÷ without grants', format: 'fixed2' },
  ],
  async run(context) {
    if (!context.databaseUrl) {
      return { status: 'skipped', reason: 'needs PostgreSQL (set DATABASE_URL): the comparison is with pgbench on the same server' };
    }
    const which = await run('which', ['pgbench']).catch(() => null);
    if (!which) return { status: 'skipped', reason: 'pgbench is not installed (Debian: apt-get install postgresql-client)' };

    context.log(`pgbench -i -s ${PGBENCH.scale}, then TPC-B -c ${PGBENCH.clients} -j ${PGBENCH.threads} -T ${PGBENCH.seconds}`);
    const tpcb = await withFreshPostgres(context.databaseUrl, (url) => pgbench(url, context.log));

    return withServer('postgresql', context, async (server) => {
      const url = server.databaseUrl!;
      const times: Record<string, number> = {};
      const key = generateKey();
      const setup = await withClient(url, async (client) => {
        await prepareSession(client);
        const house = await generateTree(client, TREE, times, context.log);
        await step(times, 'agent, 1,000 activations, funding and an API key', context.log, () => meter(client, house.id, key));
        const { rows } = await client.query<{ id: string }>(`select organization_id as id from bench_usage_orgs order by n`);
        const books = await step(
          times,
          `marked-up tree (${MARKUP.superAgencies} super agencies, ${MARKUP.agencies} agencies, ${MARKUP.tenants.toLocaleString('en-US')} tenants, books)`,
          context.log,
          () => markupTree(client, house.id),
        );
        const grantedOrgs = await step(
          times,
          `granted tree (${GRANTED.agencies} agencies, ${GRANTED.tenants.toLocaleString('en-US')} tenants, three credit grants each)`,
          context.log,
          () => grantedTree(client, house.id, AGENT),
        );
        await client.query('vacuum analyze');
        return { house, orgs: rows.map((r) => r.id), markupOrgs: books.orgs, prices: books.prices, grantedOrgs };
      });
      const bearer = { authorization: `Bearer ${key.key}` };
      const durationSeconds = context.durationSeconds ?? 20;
      const runId = Date.now().toString(36);
      const rows: Row[] = [];

      const batches = (name: string, tag: string, orgs: string[], seconds = durationSeconds) =>
        measureBatches(server, { name, bearer, idPrefix: `batch-${runId}-${tag}`, orgs, seconds });
      const ingestion: {
        orgs: number;
        api: Row;
        perEvent: Yardstick;
        aggregated: Yardstick;
        booked: Row;
        posted: Posted;
        granted: Row | null;
      }[] = [];
      for (const spread of SPREADS) {
        context.log(`batched ingestion over ${spread.orgs} organizations: ${BATCH} events a request, ${BATCH_CONNECTIONS} connections`);
        // Without books and with books in turn, each in two halves of the run's duration, in the
        // order without, with, with, without: what the database has become by then (the rows
        // written, checkpoints, autovacuum after the runs before) weighs on both alike.
        const half = Math.max(1, Math.round(durationSeconds / 2));
        const plainName = `usage batches of ${BATCH.toLocaleString('en-US')} events over ${spread.orgs.toLocaleString('en-US')} tenants`;
        const bookedName =
          `usage batches of ${BATCH.toLocaleString('en-US')} events over ${spread.orgs.toLocaleString('en-US')} tenants, ` +
          `under ${MARKUP.agencies} agencies and ${MARKUP.superAgencies} super agencies with price books (+20 %, +25 %)`;
        const plainOrgs = setup.orgs.slice(0, spread.orgs);
        const bookedOrgs = setup.markupOrgs.slice(0, spread.orgs);
        // Over the whole tree only: the same batches to tenants that hold three grants each,
        // taken as halves between the plain ones and the booked ones (plain, grants, books,
        // books, grants, plain), so both kinds meet the database as it ages alike.
        const withGrants = spread.orgs === GRANTED.tenants;
        const grantedName =
          `usage batches of ${BATCH.toLocaleString('en-US')} events over ${spread.orgs.toLocaleString('en-US')} tenants ` +
          'holding three credit grants each (for this agent, for every agent, for another agent)';
        const plainA = await batches(plainName, `${spread.orgs}-a`, plainOrgs, half);
        const grantedA = withGrants ? await batches(grantedName, `grants-${spread.orgs}-a`, setup.grantedOrgs, half) : null;
        context.log(
          `the same over ${spread.orgs} tenants below sellers with price books (three levels of price), twice, then without again`,
        );
        const before = await posted(url);
        const bookedA = await batches(bookedName, `books-${spread.orgs}-a`, bookedOrgs, half);
        const bookedB = await batches(bookedName, `books-${spread.orgs}-b`, bookedOrgs, half);
        const after = await posted(url);
        const grantedB = withGrants ? await batches(grantedName, `grants-${spread.orgs}-b`, setup.grantedOrgs, half) : null;
        const plainB = await batches(plainName, `${spread.orgs}-b`, plainOrgs, half);
        const api = halves(plainA, plainB);
        const booked = halves(bookedA, bookedB);
        const granted = grantedA && grantedB ? halves(grantedA, grantedB) : null;
        if (granted) {
          granted.ratioGrants = round(Number(granted.eventsPerSecond) / Number(api.eventsPerSecond), 2);
          context.log(`  ${granted.eventsPerSecond} events/s with grants, ${api.eventsPerSecond} without: ${granted.ratioGrants}`);
        }
        const delta: Posted = {
          events: after.events - before.events,
          consumption: after.consumption - before.consumption,
          earning: after.earning - before.earning,
        };
        booked.ratioBooks = round(Number(booked.eventsPerSecond) / Number(api.eventsPerSecond), 2);
        context.log(
          `  ${booked.eventsPerSecond} events/s with books, ${api.eventsPerSecond} without: ${booked.ratioBooks}; ` +
            `${delta.events} events, ${delta.consumption} consumption and ${delta.earning} earning entries posted`,
        );
        context.log(`the per-event writes as plain SQL: pgbench -c ${BATCH_CONNECTIONS} -T ${durationSeconds}`);
        const perEvent = await sqlYardstick(
          url,
          durationSeconds,
          `plain SQL, the per-event writes of before (an entry and a balance update per event), over 1,000 tenants (pgbench, yardstick)`,
          SQL_PER_EVENT,
        );
        context.log(
          `the aggregated writes as plain SQL over ${spread.orgs} organizations: pgbench -c ${BATCH_CONNECTIONS} -T ${durationSeconds}`,
        );
        const aggregated = await sqlYardstick(
          url,
          durationSeconds,
          `plain SQL, the aggregated writes (an entry and a balance update per organization) over ${spread.orgs.toLocaleString('en-US')} tenants (pgbench, yardstick)`,
          sqlAggregated(spread.table, BATCH / spread.orgs),
        );
        for (const row of [api, booked, ...(granted ? [granted] : [])]) {
          row.ratio = round(Number(row.eventsPerSecond) / perEvent.eventsPerSecond, 2);
          row.ratioAggregated = round(Number(row.eventsPerSecond) / aggregated.eventsPerSecond, 2);
        }
        rows.push(api, booked, ...(granted ? [granted] : []), perEvent.row, aggregated.row);
        ingestion.push({ orgs: spread.orgs, api, perEvent, aggregated, booked, posted: delta, granted });
      }

      context.log(`single events, ${SINGLE_CONNECTIONS} connections`);
      const single = await measure(server, {
        name: 'single usage events (one a request)',
        method: 'POST',
        path: '/api/v1/usage-events',
        headers: bearer,
        connections: SINGLE_CONNECTIONS,
        durationSeconds,
        rotate: (n) => ({
          body: {
            events: [
              {
                id: `single-${runId}-${n}`,
                organization_id: setup.orgs[n % setup.orgs.length]!,
                agent: AGENT,
                units: '1',
                occurred_at: new Date().toISOString(),
              },
            ],
          },
        }),
      });
      single.eventsPerSecond = single.rps ?? null;
      single.ratio = round(Number(single.rps) / tpcb.tps, 2);
      rows.push(single, { ...tpcb.row, database: server.database, eventsPerSecond: null, ratio: 1 });

      context.log(`entitlements, ${ENTITLEMENT_CONNECTIONS} connections`);
      const entitlements = await measure(server, {
        name: 'entitlement checks',
        method: 'GET',
        path: `/api/v1/entitlements?organization_id=${setup.orgs[0]}&agent=${AGENT}`,
        headers: bearer,
        connections: ENTITLEMENT_CONNECTIONS,
        durationSeconds,
        rotate: (n) => ({ path: `/api/v1/entitlements?organization_id=${setup.orgs[n % setup.orgs.length]}&agent=${AGENT}` }),
      });
      // The ceiling: a bare Fastify + pg server running the statements one entitlement check sent, behind a JWT check.
      await server.captureStart();
      await call(server, 'GET', `/api/v1/entitlements?organization_id=${setup.orgs[0]}&agent=${AGENT}`, key.key);
      // Background work of the process (rate-limit and key-use flushes, the alert and mail senders) may
      // send statements in the same moment: only the check's own go to the bare server.
      const captured = await server.captureStop();
      const background = /rate_limits|balance_alerts|mail_|export_slots|use_count|last_used_at/;
      const statements = captured.filter((statement) => !background.test(statement.text));
      context.log(
        `  captured ${captured.length} statements, ${statements.length} the check's own: ${statements
          .map((statement) => statement.text.replace(/\s+/g, ' ').slice(0, 60))
          .join(' | ')}`,
      );
      const token = await signIn(server, BENCH_ADMIN);
      context.log(`entitlements on the bare server (${statements.length} statements), ${ENTITLEMENT_CONNECTIONS} connections`);
      const bareEntitlements = await withServerOn(
        url,
        (bare) =>
          measure(bare, {
            name: `bare Fastify + pg + jose, the same ${statements.length} statements as an entitlement check (ceiling)`,
            method: 'GET',
            path: '/bare/entitlement',
            headers: { authorization: `Bearer ${token}` },
            connections: ENTITLEMENT_CONNECTIONS,
            durationSeconds,
          }),
        { bare: { statements: { entitlement: statements } } },
      );
      entitlements.ratio = round(Number(entitlements.rps) / Number(bareEntitlements.rps), 2);
      rows.push(entitlements, { ...bareEntitlements, ratio: 1 });

      const books = await step(times, 'reconciliation (reconcile(db))', context.log, () => reconcileOn(url));
      if (!books.ok) throw new Error(`the books do not reconcile after the ingestion runs: ${JSON.stringify(books).slice(0, 800)}`);
      const counts = await withClient(url, async (client) => {
        const { rows: r } = await client.query<{ events: string; entries: string; audit: string }>(
          `select (select count(*) from usage_events)::text as events,
                  (select count(*) from credit_ledger_entries where entry_type = 'consumption')::text as entries,
                  (select count(*) from audit_log where action = 'usage.reported')::text as audit`,
        );
        return r[0]!;
      });

      context.log(`a consumption ledger of ${LEDGER_ENTRIES.toLocaleString('en-US')} entries`);
      const hot = await withClient(url, async (client) => {
        await prepareSession(client);
        return hotLedger(client, times, context.log);
      });
      const base = `/api/credits/ledger?organization_id=${hot.id}`;
      const filtered = `${base}&agent_type_id=${hot.agentId}`;
      const pageCases: [string, string][] = [
        ['first page', base],
        [`page ${(hot.deepPage + 1).toLocaleString('en-US')} (cursor)`, `${base}&cursor=${hot.deepCursor}`],
        [`agent_type_id filter, first page`, filtered],
        [
          `agent_type_id filter, page ${(hot.deepAgentPage + 1).toLocaleString('en-US')} (cursor)`,
          `${filtered}&cursor=${hot.deepAgentCursor}`,
        ],
      ];
      for (const [name, path] of pageCases) {
        context.log(name);
        rows.push(
          await measure(server, {
            name: `ledger of a tenant with ${LEDGER_ENTRIES.toLocaleString('en-US')} consumption entries: ${name}`,
            method: 'GET',
            path,
            headers: { authorization: `Bearer ${token}` },
            connections: 10,
            durationSeconds: context.durationSeconds ?? 10,
          }),
        );
      }
      const plans = await withClient(url, async (client) => {
        const query = (extra: string) => `
          select * from credit_ledger_entries where organization_id = $1 ${extra}
          order by created_at desc, seq desc limit ${PAGE + 1}`;
        const cursor = (n: number) =>
          `and (created_at, seq) < (select c.created_at, c.seq from credit_ledger_entries c where c.seq = $${n}::bigint)`;
        const list: Plan[] = [];
        list.push(await explain(client, 'first page', query(''), [hot.id]));
        list.push(await explain(client, `page ${hot.deepPage + 1}`, query(cursor(2)), [hot.id, hot.deepCursor]));
        list.push(await explain(client, 'agent filter, first page', query('and agent_type_id = $2'), [hot.id, hot.agentId]));
        list.push(
          await explain(client, `agent filter, page ${hot.deepAgentPage + 1}`, query(`and agent_type_id = $2 ${cursor(3)}`), [
            hot.id,
            hot.agentId,
            hot.deepAgentCursor,
          ]),
        );
        return list;
      });

      return {
        status: 'ok',
        rows,
        tables: [
          {
            title: 'Ledger page queries (EXPLAIN ANALYZE on the same database, after the runs)',
            columns: PLAN_COLUMNS,
            rows: plans.map(planRow),
          },
        ],
        notes: [
          ...ingestion.flatMap((i) =>
            i.granted
              ? [
                  `With credit grants, over ${i.orgs.toLocaleString('en-US')} tenants holding three grants each (one for this agent, ` +
                    `one for every agent, one for another agent; each event weighs all three and draws from the first that applies): ` +
                    `${i.granted.eventsPerSecond} events/s against ${i.api.eventsPerSecond} without (halves taken in turn): ratio ` +
                    `${i.granted.ratioGrants} (aim 0.8).`,
                ]
              : [],
          ),
          ...ingestion.map(
            (i) =>
              `Batched ingestion over ${i.orgs.toLocaleString('en-US')} tenants: ${i.api.eventsPerSecond} events/s through the API (aim 10,000); ` +
              `the per-event SQL writes of before ${i.perEvent.eventsPerSecond} events/s (${i.perEvent.failed} failed, ${i.perEvent.averageMs} ms a batch): ` +
              `ratio ${i.api.ratio} (aim 1.0); the aggregated SQL writes ${i.aggregated.eventsPerSecond} events/s (${i.aggregated.failed} failed, ` +
              `${i.aggregated.averageMs} ms a batch): ratio ${i.api.ratioAggregated} (aim 0.5).`,
          ),
          ...ingestion.map(
            (i) =>
              `With price books, over ${i.orgs.toLocaleString('en-US')} tenants below ${MARKUP.agencies} agencies and ` +
              `${MARKUP.superAgencies} super agencies (prices ${setup.prices.catalog} catalog, ${setup.prices.superAgency} ` +
              `the super agencies' books, ${setup.prices.agency} the agencies'): ${i.booked.eventsPerSecond} events/s against ` +
              `${i.api.eventsPerSecond} without books (halves taken in turn): ratio ${i.booked.ratioBooks} (aim 0.8; load ` +
              `${i.api.loadAverage} and ${i.booked.loadAverage}). The run (warm-up included) posted ` +
              `${i.posted.events.toLocaleString('en-US')} events, ${i.posted.consumption.toLocaleString('en-US')} consumption ` +
              `entries and ${i.posted.earning.toLocaleString('en-US')} earning entries to the sellers.`,
          ),
          `pgbench TPC-B: ${tpcb.initSeconds} s to initialize scale ${PGBENCH.scale}; ${tpcb.tps} tps (without initial connection time), ` +
            `${tpcb.failed} failed transactions, average latency ${tpcb.averageMs} ms.`,
          `Reconciliation after the ingestion runs: ${books.ok ? 'passed' : 'FAILED'} (${books.organizations_checked.toLocaleString('en-US')} organizations, ` +
            `${Number(counts.events).toLocaleString('en-US')} usage events, ${Number(counts.entries).toLocaleString('en-US')} consumption entries, ` +
            `${Number(counts.audit).toLocaleString('en-US')} audit rows for the API's batches and single events); the SQL script's events are in them too, ` +
            'written with cost = charge so the carries still agree.',
          `Setup: ${Object.entries(times)
            .map(([k, v]) => `${k} ${v} s`)
            .join(', ')}.`,
          ...plans.map((p) => `${p.name}: ${p.scans.join(', ')}; ${p.executionMs} ms.`),
        ],
        details: {
          tree: TREE,
          markup: { ...MARKUP, prices: setup.prices, posted: ingestion.map((i) => ({ orgs: i.orgs, ...i.posted })) },
          batch: BATCH,
          price: PRICE,
          ledgerEntries: LEDGER_ENTRIES,
          hot,
          setupSeconds: times,
          sqlPerEvent: SQL_PER_EVENT,
          sqlAggregated: SPREADS.map((spread) => sqlAggregated(spread.table, BATCH / spread.orgs)),
          tpcb: { ...tpcb, row: undefined },
          plans,
        },
      };
    });
  },
};

/** Each batched row counts at least this many batches, however long they take. */
const MIN_BATCHES_PER_ROW = 20;

/**
 * Batched ingestion for `seconds`: `POST /api/v1/usage-events` with BATCH events of 1 unit of
 * AGENT at BATCH_CONNECTIONS connections, request n's event i for `orgs[(i + n) % orgs.length]`,
 * each id `${idPrefix}-${n}-${i}` (unique to the run, so nothing is a duplicate). The row gains
 * its events/s.
 */
export async function measureBatches(
  server: BenchServer,
  options: { name: string; bearer: Record<string, string>; idPrefix: string; orgs: string[]; seconds: number },
): Promise<Row> {
  const { orgs, idPrefix } = options;
  const row = await measure(server, {
    name: options.name,
    method: 'POST',
    path: '/api/v1/usage-events',
    headers: options.bearer,
    connections: BATCH_CONNECTIONS,
    durationSeconds: options.seconds,
    // A row is two halves taken in turn: each counts at least half of MIN_BATCHES_PER_ROW.
    minRequests: MIN_BATCHES_PER_ROW / 2,
    rotate: (n) => {
      const at = new Date().toISOString();
      return {
        body: {
          events: Array.from({ length: BATCH }, (_, i) => ({
            id: `${idPrefix}-${n}-${i}`,
            organization_id: orgs[(i + n) % orgs.length]!,
            agent: AGENT,
            units: '1',
            occurred_at: at,
          })),
        },
      };
    },
  });
  row.eventsPerSecond = round(Number(row.rps) * BATCH, 1);
  return row;
}

export async function meter(client: pg.Client, houseId: string, key: { prefix: string; hash: string }) {
  await client.query(
    `create table bench_usage_orgs as select (row_number() over (order by id) - 1)::int as n, id as organization_id from organizations where org_type = 'tenant'`,
  );
  await client.query(`create table bench_usage_orgs10 as select * from bench_usage_orgs where n < 10`);
  await client.query(`create sequence bench_usage_batch`);
  const { rows } = await client.query<{ id: string }>(
    `insert into agent_types (code, name, kind, unit) values ($1, 'Bench Bot', 'automation', 'run') returning id`,
    [AGENT],
  );
  const agent = rows[0]!.id;
  await client.query(`insert into agent_prices (agent_type_id, effective_from, price) values ($1, now() - interval '40 days', $2)`, [
    agent,
    PRICE,
  ]);
  await client.query(
    `insert into agent_activations (organization_id, agent_type_id, status) select organization_id, $1, 'active' from bench_usage_orgs`,
    [agent],
  );
  await client.query(`
    insert into credit_ledger_entries (organization_id, amount, entry_type, transaction_group, balance_after, metadata)
    select organization_id, 1000000, 'adjustment_increase', gen_random_uuid(), 1000000, '{"reason":"bench funding"}' from bench_usage_orgs`);
  await client.query(
    `update organization_billing_settings b set credit_balance = 1000000 from bench_usage_orgs o where b.organization_id = o.organization_id`,
  );
  await client.query(
    `insert into api_keys (organization_id, name, prefix, secret_hash, scopes) values ($1, 'bench runtime', $2, $3, array['usage:write', 'agents:report', 'entitlements:read'])`,
    [houseId, key.prefix, key.hash],
  );
}

/**
 * The marked-up tree under the house, generated in SQL (INSERT ... SELECT over
 * generate_series; the path trigger computes each path from the parent's): super agencies,
 * agencies and tenants with their billing settings, the sellers' books (from 40 days ago, as
 * the catalog price), and for the tenants the agent's activation and 1,000,000.00 credits.
 * Tenant n (bench_markup_orgs.n) is under agency n % agencies, itself under super agency
 * (n % agencies) % superAgencies.
 */
async function markupTree(client: pg.Client, houseId: string) {
  const sa = (n: string) => `pg_temp.bench_uuid('msa' || (${n}))`;
  const ag = (n: string) => `pg_temp.bench_uuid('mag' || (${n}))`;
  const tn = (n: string) => `pg_temp.bench_uuid('mtn' || (${n}))`;
  const { superAgencies, agencies, tenants } = MARKUP;
  await client.query(`
    insert into organizations (id, name, org_type, parent_org_id, parent_org_type)
    select ${sa('n')}, 'Markup Super Agency ' || n, 'super_agency', '${houseId}', 'house' from generate_series(0, ${superAgencies - 1}) n`);
  await client.query(`
    insert into organizations (id, name, org_type, parent_org_id, parent_org_type)
    select ${ag('n')}, 'Markup Agency ' || n, 'agency', ${sa(`n % ${superAgencies}`)}, 'super_agency' from generate_series(0, ${agencies - 1}) n`);
  await client.query(`
    insert into organizations (id, name, org_type, parent_org_id, parent_org_type)
    select ${tn('n')}, 'Markup Tenant ' || n, 'tenant', ${ag(`n % ${agencies}`)}, 'agency' from generate_series(0, ${tenants - 1}) n`);
  await client.query(`
    insert into organization_billing_settings (organization_id)
    select ${sa('n')} from generate_series(0, ${superAgencies - 1}) n
    union all select ${ag('n')} from generate_series(0, ${agencies - 1}) n
    union all select ${tn('n')} from generate_series(0, ${tenants - 1}) n`);
  await client.query(`create table bench_markup_orgs as select n, ${tn('n')} as organization_id from generate_series(0, ${tenants - 1}) n`);
  const { rows } = await client.query<{ agent: string; catalog: string; super_agency: string; agency: string }>(
    `select t.id as agent, p.price::text as catalog, round(p.price * $2, 4)::text as super_agency,
            round(round(p.price * $2, 4) * $3, 4)::text as agency
     from agent_types t join agent_prices p on p.agent_type_id = t.id where t.code = $1`,
    [AGENT, MARKUP.superAgencyMarkup, MARKUP.agencyMarkup],
  );
  const { agent, catalog, super_agency: superAgency, agency } = rows[0]!;
  await client.query(
    `insert into organization_prices (organization_id, agent_type_id, price, effective_from)
     select ${sa('n')}, $1::uuid, $2::numeric, now() - interval '40 days' from generate_series(0, ${superAgencies - 1}) n
     union all select ${ag('n')}, $1::uuid, $3::numeric, now() - interval '40 days' from generate_series(0, ${agencies - 1}) n`,
    [agent, superAgency, agency],
  );
  await client.query(
    `insert into agent_activations (organization_id, agent_type_id, status) select organization_id, $1, 'active' from bench_markup_orgs`,
    [agent],
  );
  await client.query(`
    insert into credit_ledger_entries (organization_id, amount, entry_type, transaction_group, balance_after, metadata)
    select organization_id, 1000000, 'adjustment_increase', gen_random_uuid(), 1000000, '{"reason":"bench funding"}' from bench_markup_orgs`);
  await client.query(
    `update organization_billing_settings b set credit_balance = 1000000 from bench_markup_orgs o where b.organization_id = o.organization_id`,
  );
  const orgs = await client.query<{ id: string }>(`select organization_id as id from bench_markup_orgs order by n`);
  return { orgs: orgs.rows.map((r) => r.id), prices: { catalog, superAgency, agency } };
}

/** What the marked-up tree's batches have posted so far: its tenants' events, and the ledger's consumption and earning entries there. */
interface Posted {
  events: number;
  consumption: number;
  earning: number;
}

async function posted(url: string): Promise<Posted> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ events: number; consumption: number; earning: number }>(`
      select (select count(*) from usage_events e join bench_markup_orgs o using (organization_id))::int as events,
             (select count(*) from credit_ledger_entries e join bench_markup_orgs o using (organization_id) where e.entry_type = 'consumption')::int as consumption,
             (select count(*) from credit_ledger_entries where entry_type = 'earning')::int as earning`);
    return rows[0]!;
  });
}

/**
 * One row from the two halves of a run: counts added, rates over the whole time, CPU per
 * request weighted by requests, the load their mean, and the latencies the worse half's
 * (percentiles do not add up).
 */
export function halves(a: Row, b: Row): Row {
  const requests = Number(a.requests) + Number(b.requests);
  const seconds = Number(a.durationSeconds) + Number(b.durationSeconds);
  return {
    ...a,
    durationSeconds: seconds,
    requests,
    rps: round(requests / seconds, 2),
    p50Ms: Math.max(Number(a.p50Ms), Number(b.p50Ms)),
    p99Ms: Math.max(Number(a.p99Ms), Number(b.p99Ms)),
    maxMs: Math.max(Number(a.maxMs), Number(b.maxMs)),
    errors: Number(a.errors) + Number(b.errors),
    non2xx: Number(a.non2xx) + Number(b.non2xx),
    cpuMsPerRequest: round(
      (Number(a.cpuMsPerRequest) * Number(a.requests) + Number(b.cpuMsPerRequest) * Number(b.requests)) / Math.max(1, requests),
      2,
    ),
    loadAverage: round((Number(a.loadAverage) + Number(b.loadAverage)) / 2, 1),
    eventsPerSecond: round((requests / seconds) * BATCH, 1),
    halves: `${a.requests} + ${b.requests} requests`,
  };
}

/** The plain SQL batch run by pgbench at the batched run's connections, with its per-transaction log. */
type Yardstick = Awaited<ReturnType<typeof sqlYardstick>>;

async function sqlYardstick(url: string, seconds: number, name: string, script: string) {
  const { row, rawTps: tps, failed, averageMs } = await pgbenchScript(url, { name, script, clients: BATCH_CONNECTIONS, seconds });
  const eventsPerSecond = round(tps * BATCH, 1);
  const yardstick: Row = { ...row, eventsPerSecond, ratio: 1 };
  return { row: yardstick, tps, eventsPerSecond, failed, averageMs };
}

/**
 * A tenant with LEDGER_ENTRIES consumption entries of 0.01 over a year, four agents in turn,
 * after one funding entry of exactly what they spend: balance_after is computed, not summed,
 * so the entries go in by INSERT ... SELECT over generate_series, a million a statement, with
 * the ledger's secondary indexes dropped meanwhile and built again afterwards. These entries
 * have no usage events (the reconciliation that ran before would name them).
 */
async function hotLedger(client: pg.Client, times: Record<string, number>, log: (m: string) => void) {
  const { rows: org } = await client.query<{ id: string }>(`
    insert into organizations (name, org_type, parent_org_id, parent_org_type)
    values ('Hot Tenant', 'tenant', ${ids.agency('0')}, 'agency') returning id`);
  const hot = org[0]!.id;
  await client.query(`insert into organization_billing_settings (organization_id) values ($1)`, [hot]);
  const agentIds: string[] = [];
  for (const code of HOT_AGENTS) {
    const { rows } = await client.query<{ id: string }>(
      `insert into agent_types (code, name, kind, unit) values ($1, $1, 'automation', 'run')
       on conflict (code) do update set name = excluded.name returning id`,
      [code],
    );
    agentIds.push(rows[0]!.id);
  }
  const total = LEDGER_ENTRIES;
  const funds = (total / 100).toFixed(2);
  const start = new Date(Date.now() - 366 * DAY * 1000).toISOString();
  const stepSeconds = (365 * DAY) / total;
  const indexes = (
    await client.query<{ indexname: string; indexdef: string }>(
      `select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename = 'credit_ledger_entries'
       and indexname not in (select conname from pg_constraint where conrelid = 'credit_ledger_entries'::regclass)`,
    )
  ).rows;
  await step(times, `drop ${indexes.length} ledger indexes`, log, async () => {
    for (const index of indexes) await client.query(`drop index ${index.indexname}`);
  });
  // Entries written by hand are chained row by row by a trigger that keeps the head on the
  // balance row; for a million rows of one organization they are written with an empty hash
  // and chained once at the end instead.
  await client.query('alter table credit_ledger_entries disable trigger credit_ledger_chain_fill_trg');
  try {
    await client.query(
      `insert into credit_ledger_entries (organization_id, amount, entry_type, transaction_group, balance_after, metadata, created_at, hash)
       values ($1, $2, 'adjustment_increase', gen_random_uuid(), $2, '{"reason":"bench funding"}', $3::timestamptz, ''::bytea)`,
      [hot, funds, start],
    );
    const started = performance.now();
    for (let from = 1; from <= total; from += LEDGER_CHUNK) {
      const to = Math.min(total, from + LEDGER_CHUNK - 1);
      await client.query(
        `insert into credit_ledger_entries (organization_id, amount, entry_type, transaction_group, metadata, balance_after, external_ref, agent_type_id, units, created_at, hash)
         select $1, -0.01, 'consumption', gen_random_uuid(),
                jsonb_build_object('agent', ($2::text[])[1 + k % 4], 'units', '1.0000', 'event_id', 'hot-' || k),
                $3::numeric - k * 0.01, 'hot-' || k, ($4::uuid[])[1 + k % 4], 1,
                $5::timestamptz + make_interval(secs => k * $6::float8), ''::bytea
         from generate_series($7::bigint, $8::bigint) k`,
        [hot, HOT_AGENTS, funds, agentIds, start, stepSeconds, from, to],
      );
      log(
        `  entries ${to.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
      );
    }
    times[`${total.toLocaleString('en-US')} consumption entries`] = round((performance.now() - started) / 1000, 1);
  } finally {
    await client.query('alter table credit_ledger_entries enable trigger credit_ledger_chain_fill_trg');
    for (const index of indexes) {
      await step(times, `build ${index.indexname}`, log, () => client.query(index.indexdef));
    }
  }
  await step(times, 'chain the entries (ledger_chain_rebuild)', log, async () => {
    await client.query('begin');
    await client.query('alter table credit_ledger_entries disable trigger credit_ledger_no_update');
    await client.query('select ledger_chain_rebuild($1)', [hot]);
    await client.query('alter table credit_ledger_entries enable trigger credit_ledger_no_update');
    await client.query('commit');
  });
  await client.query(`update organization_billing_settings set credit_balance = 0 where organization_id = $1`, [hot]);
  await step(times, 'vacuum analyze credit_ledger_entries', log, () => client.query('vacuum analyze credit_ledger_entries'));
  // Cursors half-way down: the seq of the last entry of the page before, newest first.
  const deepPage = Math.floor(total / 2 / PAGE);
  const seqOf = async (k: number) =>
    (
      await client.query<{ seq: string }>(`select seq::text from credit_ledger_entries where organization_id = $1 and external_ref = $2`, [
        hot,
        `hot-${k}`,
      ])
    ).rows[0]!.seq;
  const deepCursor = await seqOf(total - deepPage * PAGE + 1);
  // The filtered agent is the first (k % 4 = 0): entries 4, 8, ..., newest first.
  const agentEntries = Math.floor(total / 4);
  const deepAgentPage = Math.floor(agentEntries / 2 / PAGE);
  const deepAgentCursor = await seqOf(4 * (agentEntries - deepAgentPage * PAGE + 1));
  return { id: hot, agentId: agentIds[0]!, entries: total, deepPage, deepCursor, deepAgentPage, deepAgentCursor };
}
