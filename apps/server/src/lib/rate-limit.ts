import { sql, type Kysely } from 'kysely';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type { DB, Executor } from '../db/schema.ts';
import { RateLimitedError } from './errors.ts';

/** Expired rows each count removes (besides renewing its own). */
const SWEEP = 20;

/**
 * A @fastify/rate-limit store over a PostgreSQL table, so every server process behind
 * a load balancer counts against the same limits (an in-process store would let each
 * process grant the full allowance).
 *
 * Each count also deletes up to SWEEP expired rows of other keys, in the same statement.
 * A count adds at most one row, so expired rows cannot pile up: the table holds about the
 * keys counted within one window, whatever the number of processes or their restarts.
 */
/**
 * Counts one request (or `amount`) against `key`: a fixed window of `windowMs` starts at the first count
 * after the previous window ended. Answers the count within the window and the time left.
 * Within a transaction the count is undone if it rolls back, and the key's row stays locked
 * until it ends, so concurrent counts of one key take turns. Times are read when the row is
 * counted (`clock_timestamp()`), not when the transaction began (`now()`): a count that
 * waited for another's commit must not see a window longer than its length.
 *
 * Each count also deletes up to SWEEP expired rows of other keys, in the same statement.
 * A count adds at most one row, so expired rows cannot pile up: the table holds about the
 * keys counted within one window, whatever the number of processes or their restarts.
 */
export async function countHit(
  executor: Executor,
  key: string,
  windowMs: number,
  /** What the request counts for (1 unless it stands for several, as a redelivery of many deliveries). */
  amount = 1,
): Promise<{ current: number; ttl: number }> {
  const row = await sql<{ count: number; ttl: number }>`
    with swept as (${sweepExcept(key)})
    insert into rate_limits (key, count, reset_at)
    values (${key}, ${amount}::integer, clock_timestamp() + ${windowMs} * interval '1 millisecond')
    on conflict (key) do update set
      count = case when rate_limits.reset_at <= clock_timestamp() then excluded.count else rate_limits.count + excluded.count end,
      reset_at = case when rate_limits.reset_at <= clock_timestamp() then excluded.reset_at else rate_limits.reset_at end
    returning count, (extract(epoch from (reset_at - clock_timestamp())) * 1000)::int as ttl`.execute(executor);
  const result = row.rows[0]!;
  return { current: result.count, ttl: Math.max(result.ttl, 0) };
}

/** What `key` has counted in its current window, and the time left of it (0 and 0 when none is under way). */
export async function windowCount(executor: Executor, key: string): Promise<{ count: number; ttl: number }> {
  const { rows } = await sql<{ count: number; ttl: number }>`
    select count, (extract(epoch from (reset_at - clock_timestamp())) * 1000)::int as ttl
    from rate_limits where key = ${key} and reset_at > clock_timestamp()`.execute(executor);
  return rows[0] ? { count: rows[0].count, ttl: Math.max(rows[0].ttl, 0) } : { count: 0, ttl: 0 };
}

/** Deletes up to SWEEP expired rows of keys other than `key` (each count adds at most one row). */
function sweepExcept(key: string) {
  return sql`
    delete from rate_limits
    where key in (
      select key from rate_limits
      where reset_at < now() and key <> ${key}
      order by reset_at
      limit ${SWEEP}
      for update skip locked
    )`;
}

/**
 * A run of failures counted under `key` in the same table: `count` failures in a row, the
 * row's `reset_at` being the last one plus `windowMs`, so the run is forgotten (and swept)
 * once `windowMs` passes without a failure. Answers its length and the time since its last
 * failure; an empty run when there is none.
 */
export async function readRun(executor: Executor, key: string, windowMs: number): Promise<{ count: number; sinceLastMs: number }> {
  const { rows } = await sql<{ count: number; since_last_ms: number }>`
    select count, (extract(epoch from clock_timestamp() - reset_at) * 1000)::int + ${windowMs}::int as since_last_ms
    from rate_limits where key = ${key} and reset_at > clock_timestamp()`.execute(executor);
  const row = rows[0];
  return row ? { count: row.count, sinceLastMs: Math.max(row.since_last_ms, 0) } : { count: 0, sinceLastMs: 0 };
}

/**
 * Adds a failure to the run under `key`, now. With `only`, only while the run is shorter than
 * `only.below` or still has the length `only.seen`, and answers whether it did: of several
 * requests that read the same run at or past `below`, one adds to it and the others read it
 * again, while below it they all add.
 */
export async function extendRun(
  executor: Executor,
  key: string,
  windowMs: number,
  only: { seen: number; below: number } | null,
): Promise<boolean> {
  const live = sql`(case when rate_limits.reset_at <= clock_timestamp() then 0 else rate_limits.count end)`;
  const { rows } = await sql<{ count: number }>`
    with swept as (${sweepExcept(key)})
    insert into rate_limits (key, count, reset_at)
    values (${key}, 1, clock_timestamp() + ${windowMs} * interval '1 millisecond')
    on conflict (key) do update set
      count = case when rate_limits.reset_at <= clock_timestamp() then 1 else rate_limits.count + 1 end,
      reset_at = excluded.reset_at
    where ${only === null}::boolean or ${live} < ${only?.below ?? 0}::int or ${live} = ${only?.seen ?? 0}::int
    returning count`.execute(executor);
  return rows.length > 0;
}

/** Dates the last failure of the run under `key` now (a failure counted before it was known to be one). */
export async function touchRun(executor: Executor, key: string, windowMs: number): Promise<void> {
  await sql`
    update rate_limits set reset_at = clock_timestamp() + ${windowMs} * interval '1 millisecond'
    where key = ${key} and reset_at > clock_timestamp()`.execute(executor);
}

/** Ends the run under `key`. */
export async function endRun(executor: Executor, key: string): Promise<void> {
  await sql`delete from rate_limits where key = ${key}`.execute(executor);
}

/**
 * A @fastify/rate-limit store over a PostgreSQL table, so every server process behind
 * a load balancer counts against the same limits (an in-process store would let each
 * process grant the full allowance).
 */
export function postgresRateLimitStore(db: Kysely<DB>) {
  return class PostgresRateLimitStore implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number) {
      countHit(db, key, timeWindow).then(
        (result) => callback(null, result),
        (error: Error) => callback(error),
      );
    }
    child() {
      return this;
    }
  };
}

/** One count a request makes inside its transaction, and the refusal it gets past `max`. */
export interface CountRule {
  key: string;
  max: number;
  windowSeconds: number;
  /** The refusal's message, given the seconds to wait. */
  message: (retryAfterSeconds: number) => string;
}

/**
 * Counts a request against every rule, in key order (so concurrent requests lock the
 * counters in one order), inside the caller's transaction. Past any rule's `max` it throws
 * a 429 naming the longest wait among the exceeded rules; the transaction then rolls back,
 * counts included, so a refused request changes nothing and uses up no allowance.
 */
export async function countOrRefuse(trx: Executor, rules: readonly CountRule[]): Promise<void> {
  let refusal: { wait: number; rule: CountRule } | null = null;
  for (const rule of [...rules].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) {
    if (rule.windowSeconds <= 0) continue;
    const { current, ttl } = await countHit(trx, rule.key, Math.round(rule.windowSeconds * 1000));
    const wait = Math.max(1, Math.ceil(ttl / 1000));
    if (current > rule.max && (!refusal || wait > refusal.wait)) refusal = { wait, rule };
  }
  if (refusal) throw new RateLimitedError(refusal.wait, refusal.rule.message(refusal.wait));
}

export interface LimitRule {
  name: string;
  max: number;
  windowSeconds: number;
  key: (request: FastifyRequest) => string | null;
}

/**
 * A preHandler that applies several limits to one request (per address and per e-mail).
 * Each rule counts separately; the first exceeded one answers 429 with Retry-After.
 */
export function limitBy(app: FastifyInstance, rules: LimitRule[]) {
  const limiters = rules.map((rule) => ({
    rule,
    check: app.createRateLimit({
      max: rule.max,
      timeWindow: rule.windowSeconds * 1000,
      keyGenerator: (request) => `${rule.name}:${rule.key(request) ?? ''}`,
    }),
  }));
  return async (request: FastifyRequest, reply: FastifyReply) => {
    for (const { rule, check } of limiters) {
      if (rule.key(request) === null) continue;
      const result = await check(request);
      if (!result.isAllowed && result.isExceeded) {
        reply.header('retry-after', String(result.ttlInSeconds));
        throw new RateLimitedError(result.ttlInSeconds);
      }
    }
  };
}
