import { sql, type Kysely } from 'kysely';
import { preparedStatement } from '../../db/connection.ts';
import type { DB } from '../../db/schema.ts';
import { lockWhole } from '../../lib/locks.ts';

/** A delivery leased to be attempted, with what its body and signature need. */
export interface Due {
  id: string;
  attempts: number;
  event_id: string;
  type: string;
  created_at: string;
  data: unknown;
  org_id: string;
  org_name: string;
  org_type: string;
  path: { id: string; name: string }[];
  url: string;
  endpoint_id: string;
  secret_encrypted: string;
  previous_secret_encrypted: string | null;
  sendable: boolean;
}

/** What an attempt gave, as it is recorded. */
export interface Outcome {
  id: string;
  ok: boolean;
  status: number | null;
  ms: number | null;
  error: string | null;
  body: string | null;
  next_at: string | null;
  gone: boolean;
  /** No answer came within the timeout (the attempt held its place that long). */
  timed_out: boolean;
}

export interface LeaseOptions {
  batchSize: number;
  leaseMs: number;
  /** Attempts in flight at once to one endpoint, and to one organization's endpoints together. */
  perEndpoint: number;
  perOrganization: number;
}

/**
 * Leases due deliveries fairly, so no endpoint or organization holds the senders of every
 * process: an endpoint has at most `perEndpoint` deliveries leased at once (leased and not yet
 * recorded, in any process: the attempts in flight), an organization's endpoints together at
 * most `perOrganization`, and a paused endpoint (its attempts kept timing out) none. Within
 * that room, each endpoint's oldest due first, taken round-robin over the endpoints (every
 * endpoint's first, then every endpoint's second...), up to `batchSize`.
 *
 * The room is read from the rows leased, so it holds across processes only if two leases do
 * not both read it before either has leased: the leases take turns under a transaction-level
 * advisory lock, and the statement that reads the room starts once the lock is held, so it
 * sees every earlier lease committed. `skip locked` passes over a row a change holds (a
 * redelivery, a disabling) rather than waiting for it.
 */
export async function leaseDue(db: Kysely<DB>, options: LeaseOptions): Promise<Due[]> {
  return db.transaction().execute(async (trx) => {
    await lockWhole(trx, 'webhook_lease');
    return (await leaseQuery(options).execute(trx)).rows;
  });
}

/** The lease's statement (its text depends on nothing but its shape: the figures are parameters). */
function leaseQuery(options: LeaseOptions) {
  return sql<Due>`
    with recursive waiting(endpoint_id) as (
      -- The endpoints with a waiting delivery, one index probe each (a skip scan of webhook_deliveries_endpoint_due_idx).
      (select d.endpoint_id from webhook_deliveries d where d.state = 'pending' order by d.endpoint_id limit 1)
      union all
      select (select d.endpoint_id from webhook_deliveries d
              where d.state = 'pending' and d.endpoint_id > w.endpoint_id order by d.endpoint_id limit 1)
      from waiting w where w.endpoint_id is not null
    ), flying as (
      select d.endpoint_id, count(*)::integer as n from webhook_deliveries d
      where d.lease_until is not null and d.lease_until > now()
      group by d.endpoint_id
    ), flying_orgs as (
      select ep.organization_id, sum(f.n)::integer as n
      from flying f join webhook_endpoints ep on ep.id = f.endpoint_id
      group by ep.organization_id
    ), room as (
      select ep.id, ep.organization_id,
             ${options.perEndpoint}::integer - coalesce(f.n, 0) as free,
             ${options.perOrganization}::integer - coalesce(o.n, 0) as org_free
      from waiting w
      join webhook_endpoints ep on ep.id = w.endpoint_id
      left join flying f on f.endpoint_id = ep.id
      left join flying_orgs o on o.organization_id = ep.organization_id
      where ep.paused_until is null or ep.paused_until <= now()
    ), candidates as (
      -- Each endpoint's first due few, read in the index's order (the scan stops at its room).
      select c.id, c.next_attempt_at, r.organization_id, r.org_free,
             row_number() over (partition by r.id order by c.next_attempt_at) as k
      from room r
      cross join lateral (
        select d.id, d.next_attempt_at
        from webhook_deliveries d
        where d.endpoint_id = r.id and d.state = 'pending' and d.next_attempt_at <= now()
          and (d.lease_until is null or d.lease_until <= now())
        order by d.next_attempt_at
        limit greatest(least(r.free, r.org_free), 0)
      ) c
    ), chosen as (
      select x.id, x.k, x.next_attempt_at from (
        select c.*, row_number() over (partition by c.organization_id order by c.k, c.next_attempt_at, c.id) as j
        from candidates c
      ) x
      where x.j <= x.org_free
      order by x.k, x.next_attempt_at, x.id
      limit ${options.batchSize}
    ), due as (
      select d.id from webhook_deliveries d
      where d.id = any(array(select id from chosen))
        and d.state = 'pending' and d.next_attempt_at <= now() and (d.lease_until is null or d.lease_until <= now())
      for update skip locked
    ), leased as (
      update webhook_deliveries d set lease_until = now() + ${`${options.leaseMs} milliseconds`}::interval
      where d.id = any(array(select id from due))
      returning d.id, d.attempts, d.event_id, d.endpoint_id
    )
    select l.id, l.attempts, e.id as event_id, e.type, e.created_at, e.data,
           o.id as org_id, o.name as org_name, o.org_type, rp.path,
           ep.url, ep.id as endpoint_id, ep.secret_encrypted,
           case when ep.previous_secret_expires_at > now() then ep.previous_secret_encrypted end as previous_secret_encrypted,
           (ep.enabled and r.deleted_at is null) as sendable
    from leased l
    join chosen c on c.id = l.id
    join webhook_events e on e.id = l.event_id
    join webhook_endpoints ep on ep.id = l.endpoint_id
    join organizations r on r.id = ep.organization_id
    join organizations o on o.id = e.organization_id
    cross join lateral (select string_to_array(trim(both '/' from o.path), '/')::uuid[] as ids) p
    cross join lateral (
      select coalesce(jsonb_agg(jsonb_build_object('id', a.id, 'name', a.name) order by x.n), '[]'::jsonb) as path
      from unnest(p.ids) with ordinality x(id, n) join organizations a on a.id = x.id
      where x.n >= coalesce(array_position(p.ids, ep.organization_id), cardinality(p.ids))
    ) rp
    order by c.k, c.next_attempt_at, c.id`;
}

/**
 * Records attempts in one statement: each attempt's row, its delivery's new state (delivered,
 * failed, or pending until its next retry) with its lease released, and each endpoint's
 * standing: a success ends its failing run; an answer of any status ends its run of
 * timeouts and its pause; and each timeout lengthens the run and pauses the endpoint for
 * `pauseSeconds[run - 1]` (the last figure once the run is longer), so an endpoint that
 * keeps timing out holds no attempt in flight while it is paused.
 */
export async function recordOutcomes(db: Kysely<DB>, outcomes: Outcome[], pauseSeconds: readonly number[]) {
  const rows = JSON.stringify(outcomes.map((o) => ({ ...o, body: o.body?.replaceAll('\u0000', '') ?? null })));
  await recordQuery(rows, pauseSeconds).execute(db);
}

function recordQuery(rows: string, pauseSeconds: readonly number[]) {
  return sql`
    with r as (
      select * from jsonb_to_recordset(${rows}::jsonb)
        as r(id uuid, ok boolean, status integer, ms integer, error text, body text, next_at timestamptz, gone boolean, timed_out boolean)
    ), attempts as (
      insert into webhook_attempts (delivery_id, status_code, response_ms, error, response_body)
      select r.id, r.status, r.ms, r.error, r.body from r
    ), changed as (
      update webhook_deliveries d set
        attempts = d.attempts + 1,
        lease_until = null,
        state = case when r.ok then 'delivered' when r.next_at is null then 'failed' else 'pending' end,
        delivered_at = case when r.ok then now() end,
        next_attempt_at = case when r.ok then null else r.next_at end
      from r where d.id = r.id
      returning d.endpoint_id, r.ok, r.status, r.timed_out
    ), c as (
      select endpoint_id, bool_or(ok) as any_ok, bool_or(status is not null) as answered,
             count(*) filter (where timed_out)::integer as timeouts
      from changed group by endpoint_id
    ), pauses as (
      select ${pauseSeconds as number[]}::double precision[] as seconds
    )
    update webhook_endpoints ep set
      last_success_at = case when c.any_ok then now() else ep.last_success_at end,
      failing_since = case when c.any_ok then null else coalesce(ep.failing_since, now()) end,
      timeouts_in_row = case when c.answered then 0 else ep.timeouts_in_row + c.timeouts end,
      paused_until = case
        when c.answered then null
        when c.timeouts > 0 then now() + make_interval(secs => p.seconds[least(ep.timeouts_in_row + c.timeouts, cardinality(p.seconds))])
        else ep.paused_until end
    from c cross join pauses p
    where ep.id = c.endpoint_id`;
}

/**
 * Registers the lease and the record as prepared statements: on PostgreSQL each connection
 * then parses and plans them once (the lease's plan costs more than its run), not at every look.
 */
export function prepareQueue(db: Kysely<DB>, options: LeaseOptions, pauseSeconds: readonly number[]) {
  preparedStatement(leaseQuery(options).compile(db).sql);
  preparedStatement(recordQuery('[]', pauseSeconds).compile(db).sql);
}
