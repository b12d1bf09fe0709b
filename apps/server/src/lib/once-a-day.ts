import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';
import { startPollLoop } from './poll-loop.ts';
import { countHit } from './rate-limit.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How often each process looks whether the day's run is due. */
const CHECK_MS = 60 * 60 * 1000;

/**
 * A chore done once a day across every server process and host over one database: every
 * process looks at its start and then every hour, and each look counts one against the
 * `rate_limits` row `daily:<name>`, whose window is a day from the first look that ran it.
 * Only the look that counts 1 (the first of its window) does the work, in the same
 * transaction as its count: the row stays locked until it commits, so a look from another
 * host waits and then counts 2 and does nothing, and a run that fails rolls its count back,
 * leaving the day's run to the next look. The row therefore also tells how many looks the
 * window had. A single process (PGlite) works the same way.
 */
export function startOnceADay(options: {
  db: Kysely<DB>;
  logger: FastifyBaseLogger;
  /** The chore's name: its row's key, and its log lines. */
  name: string;
  work: (trx: Transaction<DB>) => Promise<unknown>;
  checkMs?: number;
}) {
  const { db, logger, name, work } = options;
  const key = `daily:${name}`;
  async function look() {
    await db.transaction().execute(async (trx) => {
      const { current } = await countHit(trx, key, DAY_MS);
      if (current !== 1) return logger.debug({ chore: name, looks: current }, 'daily chore already done in this window');
      const result = await work(trx);
      logger.info({ chore: name, result }, 'daily chore done');
    });
  }
  const loop = startPollLoop({
    pollMs: options.checkMs ?? CHECK_MS,
    logger,
    what: `daily chore ${name} could not run`,
    pass: look,
  });
  // The first look at the start: a host that never lives an hour still does its part.
  const first = loop.runNow();
  return {
    /** Resolves once the look at the start is over (it never rejects: a failure is logged). */
    first,
    /** Looks now (tests). */
    runNow: loop.runNow,
    /** No more looks; waits a little for one under way. */
    async close() {
      await loop.close();
      await first;
    },
  };
}
