import { withClient } from '../../support/postgres.ts';
import { round } from '../lib/http.ts';
import { withServer } from '../lib/server.ts';
import { PLAN_COLUMNS, explain, planRow, prepareSession, step, type Plan } from '../lib/sql.ts';
import type { Row, Suite } from '../lib/types.ts';

/** How many usage events are generated (BENCH_USAGE_EVENTS changes it). */
const EVENTS = Number(process.env.BENCH_USAGE_EVENTS ?? 100_000_000);
const CHUNK = 1_000_000;
/** Organizations the events are spread over; the heaviest takes one event in ten. */
const ORGS = 1_000;
const HEAVY_SHARE = 10;
const MONTHS = 12;
const PAGE = 100;
const AGENTS = ['grow-a', 'grow-b', 'grow-c', 'grow-d'];

/**
 * The stored events at scale: EVENTS usage events over a year of month partitions, generated
 * in SQL, and the machine API's and the console's event pages of the heaviest organization
 * read with EXPLAIN ANALYZE (the statement `modules/usage/events.ts` sends).
 */
export const usageGrowth: Suite = {
  name: 'usage-growth',
  title: 'Stored usage events at scale: size and the pages of the heaviest organization',
  about:
    `${EVENTS.toLocaleString('en-US')} usage events generated in SQL over the last ${MONTHS} months (one partition a month), ` +
    `spread over ${ORGS.toLocaleString('en-US')} organizations and four agents, the heaviest organization holding one event in ` +
    `${HEAVY_SHARE}; the secondary indexes are built after the rows. Then the events pages of the heaviest organization, as ` +
    '`GET /api/v1/usage-events` and the console read them (newest first, keyed by occurrence and id), with EXPLAIN ANALYZE: ' +
    'the first page, a page half-way down by cursor, the first page of one agent, and the first page of one day. The aim is ' +
    'under 5 ms each. The table size is reported per million events (heap, indexes and TOAST of every partition, and the ids ' +
    'kept for idempotency are not counted: they are kept for the occurrence window only). PostgreSQL only.',
  columns: [
    { key: 'name', label: 'figure', format: 'text' },
    { key: 'value', label: 'value', format: 'text' },
  ],
  async run(context) {
    if (!context.databaseUrl) return { status: 'skipped', reason: 'needs PostgreSQL (set DATABASE_URL)' };
    return withServer('postgresql', context, async (server) => {
      const times: Record<string, number> = {};
      return withClient(server.databaseUrl!, async (client) => {
        await prepareSession(client);
        const heavy = await step(times, 'organizations and agents', context.log, async () => {
          const { rows: house } = await client.query<{ id: string }>(`select id from organizations where org_type = 'house' limit 1`);
          const { rows } = await client.query<{ id: string }>(
            `with o as (
               insert into organizations (name, org_type, parent_org_id, parent_org_type)
               select 'Growth ' || n, 'super_agency', $1, 'house' from generate_series(1, ${ORGS}) n returning id
             ),
             b as (insert into organization_billing_settings (organization_id) select id from o)
             select id from o order by id`,
            [house[0]!.id],
          );
          await client.query(
            `create table bench_growth_orgs as select (row_number() over (order by id) - 1)::int as n, id from organizations
             where id = any($1::uuid[])`,
            [rows.map((r) => r.id)],
          );
          for (const code of AGENTS) {
            await client.query(`insert into agent_types (code, name, kind, unit) values ($1, $1, 'automation', 'run')`, [code]);
          }
          return rows[0]!.id;
        });
        const agentIds = (
          await client.query<{ id: string }>(`select id from agent_types where code = any($1) order by code`, [AGENTS])
        ).rows.map((r) => r.id);
        await step(times, `month partitions for ${MONTHS} months back`, context.log, () =>
          client.query(
            `select usage_events_partitions((now() at time zone 'UTC' - interval '${MONTHS} months')::date,
               (date_trunc('month', now() at time zone 'UTC') - interval '1 day')::date)`,
          ),
        );
        const indexes = (
          await client.query<{ indexname: string; indexdef: string }>(
            `select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename = 'usage_events'
             and indexname <> 'usage_events_pkey'`,
          )
        ).rows;
        await client.query(`alter table usage_events disable trigger usage_event_days_trg`);
        for (const index of indexes) await client.query(`drop index ${index.indexname}`);
        const span = MONTHS * 30 * 86_400;
        const started = performance.now();
        try {
          for (let from = 1; from <= EVENTS; from += CHUNK) {
            const to = Math.min(EVENTS, from + CHUNK - 1);
            await client.query(
              `insert into usage_events (organization_id, client_event_id, source, agent_type_id, units, price, cost, charged, occurred_at, received_at, metadata)
               select case when k % ${HEAVY_SHARE} = 0 then $1::uuid else o.id end, 'grow-' || k, 'key', ($2::uuid[])[1 + k % 4], 1, 0, 0, 0,
                      now() - make_interval(secs => ${span}::float8 * (1 - k::float8 / ${EVENTS})), now(), '{}'
               from generate_series($3::bigint, $4::bigint) k join bench_growth_orgs o on o.n = k % ${ORGS}`,
              [heavy, agentIds, from, to],
            );
            context.log(
              `  events ${to.toLocaleString('en-US')} / ${EVENTS.toLocaleString('en-US')} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
            );
          }
        } finally {
          times[`${EVENTS.toLocaleString('en-US')} events`] = round((performance.now() - started) / 1000, 1);
          // pg_indexes gives a partitioned table's index as "ON ONLY": built that way it would cover no partition.
          for (const index of indexes) {
            await step(times, `build ${index.indexname}`, context.log, () => client.query(index.indexdef.replace(' ON ONLY ', ' ON ')));
          }
          await client.query(`alter table usage_events enable trigger usage_event_days_trg`);
        }
        await step(times, 'vacuum analyze usage_events', context.log, () => client.query('vacuum analyze usage_events'));
        const { rows: size } = await client.query<{ bytes: string; events: string; heavy: string }>(
          `select (select sum(pg_total_relation_size(inhrelid)) from pg_inherits where inhparent = 'usage_events'::regclass)::text as bytes,
                  (select count(*) from usage_events)::text as events,
                  (select count(*) from usage_events where organization_id = $1)::text as heavy`,
          [heavy],
        );
        const events = Number(size[0]!.events);
        const heavyEvents = Number(size[0]!.heavy);
        // The page statement of the events list (machine API and console), and a cursor half-way down the heaviest organization's events.
        const page = (extra: string) => `
          select e.id as row_id, e.client_event_id as id, e.organization_id, t.code as agent, e.agent_type_id, e.units, e.price,
                 e.charged as credits_charged, e.occurred_at, e.received_at, e.ledger_entry_id, e.metadata
          from usage_events e join agent_types t on t.id = e.agent_type_id
          where e.organization_id = $1 ${extra}
          order by e.occurred_at desc, e.id desc limit ${PAGE + 1}`;
        const { rows: middle } = await client.query<{ id: string }>(
          `select id from usage_events where organization_id = $1 order by occurred_at desc, id desc offset $2 limit 1`,
          [heavy, Math.floor(heavyEvents / 2)],
        );
        const cursor = `and (e.occurred_at, e.id) < (select c.occurred_at, c.id from usage_events c where c.id = $2 and c.organization_id = $1)`;
        const day = new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 10);
        const plans: Plan[] = [
          await explain(client, 'first page', page(''), [heavy]),
          await explain(
            client,
            `page half-way down (${Math.floor(heavyEvents / 2 / PAGE).toLocaleString('en-US')} pages in)`,
            page(cursor),
            [heavy, middle[0]!.id],
          ),
          await explain(client, 'one agent, first page', page('and e.agent_type_id = $2'), [heavy, agentIds[0]]),
          await explain(client, `one day (${day}), first page`, page(`and e.occurred_at >= $2::date and e.occurred_at < $2::date + 1`), [
            heavy,
            day,
          ]),
        ];
        const bytes = Number(size[0]!.bytes);
        const rows: Row[] = [
          { name: 'usage events stored', value: events.toLocaleString('en-US') },
          { name: 'of which the heaviest organization', value: heavyEvents.toLocaleString('en-US') },
          { name: 'size of usage_events (every partition, with indexes)', value: `${(bytes / 2 ** 30).toFixed(2)} GiB` },
          { name: 'size per million events', value: `${(((bytes / events) * 1e6) / 2 ** 20).toFixed(1)} MiB` },
          ...plans.map((p) => ({ name: `events page, ${p.name}`, value: `${round(p.executionMs, 2)} ms (aim under 5 ms)` })),
        ];
        return {
          status: 'ok',
          rows,
          tables: [{ title: 'Events page queries (EXPLAIN ANALYZE)', columns: PLAN_COLUMNS, rows: plans.map(planRow) }],
          notes: [
            `Setup: ${Object.entries(times)
              .map(([k, v]) => `${k} ${v} s`)
              .join(', ')}.`,
            'The generated events charge nothing and the day-totals trigger is off while they are written, so the books of this ' +
              'database are not reconciled after it (the usage suite reconciles after its ingestion runs).',
          ],
          details: { events, heavyEvents, bytes, times, plans },
        };
      });
    });
  },
};
