import { sql, type Kysely } from 'kysely';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type { DB } from '../db/schema.ts';
import { RateLimitedError } from './errors.ts';

/**
 * A @fastify/rate-limit store over a PostgreSQL table, so every server process behind
 * a load balancer counts against the same limits (an in-process store would let each
 * process grant the full allowance).
 */
export function postgresRateLimitStore(db: Kysely<DB>) {
  let calls = 0;
  return class PostgresRateLimitStore implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number) {
      const run = async () => {
        if (++calls % 1000 === 0) {
          await db.deleteFrom('rate_limits').where('reset_at', '<', sql<Date>`now()`).execute();
        }
        const row = await sql<{ count: number; ttl: number }>`
          insert into rate_limits (key, count, reset_at)
          values (${key}, 1, now() + ${timeWindow} * interval '1 millisecond')
          on conflict (key) do update set
            count = case when rate_limits.reset_at <= now() then 1 else rate_limits.count + 1 end,
            reset_at = case when rate_limits.reset_at <= now() then excluded.reset_at else rate_limits.reset_at end
          returning count, (extract(epoch from (reset_at - now())) * 1000)::int as ttl`.execute(db);
        const result = row.rows[0]!;
        return { current: result.count, ttl: Math.max(result.ttl, 0) };
      };
      run().then((result) => callback(null, result), (error: Error) => callback(error));
    }
    child() {
      return this;
    }
  };
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
