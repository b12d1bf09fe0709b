import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { until } from '../../../../support/webhook-receiver.ts';
import type { DB } from '../db/schema.ts';
import { createTopUpRunner } from '../modules/billing/top-ups.ts';

/** Resolves once no top-up request is left without its outcome. */
export async function topUpsSettled(db: Kysely<DB>): Promise<void> {
  await until(async () => {
    const { rows } = await sql<{ n: number }>`select count(*)::integer as n from top_up_requests where outcome is null`.execute(db);
    return rows[0]!.n === 0;
  }, 'every top-up request judged');
}

/**
 * Runs the top-ups now, as the runner of this process. With a second server process
 * (TEST_SERVER_PROCESSES=2) that process's own runner may hold a request while this one
 * looks past it, so the run ends only once every request has its outcome.
 */
export async function runTopUpsNow(db: Kysely<DB>, logger: FastifyBaseLogger): Promise<void> {
  await createTopUpRunner({ db, logger, pollMs: 3_600_000 }).runNow();
  await topUpsSettled(db);
}
