import { Readable } from 'node:stream';
import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import type { DB } from '../db/schema.ts';
import { csvLine, exportSlots, type ExportLimits } from './csv.ts';
import { BusyError } from './errors.ts';
import { lockKeyed } from './locks.ts';

/** How long a slot counts without its process: longer than any export should run. */
const LEASE_MINUTES = 10;

export interface CsvExport<T> {
  /** The attachment's name, before the day it was made: `credit-ledger` gives `credit-ledger-2026-01-31.csv`. */
  name: string;
  columns: readonly string[];
  /** The cells of one row, in the columns' order. */
  cells: (row: T) => readonly unknown[];
  /** The rows, read a page at a time. */
  rows: () => AsyncGenerator<T>;
}

/**
 * The CSV exports. Every export route shares their counts, so the bounds hold across routes:
 * per server process in memory (an export costs that process's CPU), and per person in the
 * database (`export_slots`), so a person's bound holds across every process too; beyond
 * either the answer is 429 with Retry-After. A slot is held until the answer is sent whole
 * or its connection closes; a process that dies leaves its rows to their lease. The first
 * row is read before answering, so a refusal (403, 404) keeps its own status instead of
 * arriving as a broken download.
 */
export function createCsvExports(limits: ExportLimits, db: Kysely<DB>, log: FastifyBaseLogger) {
  const slots = exportSlots(limits);

  /** A row of the person's exports under way, or null at their bound; one person's takes run one at a time. */
  async function takeShared(userId: string): Promise<string | null> {
    return db.transaction().execute(async (trx) => {
      await lockKeyed(trx, 'export_slots', userId);
      await trx.deleteFrom('export_slots').where('user_id', '=', userId).where('expires_at', '<=', sql<string>`now()`).execute();
      const taken = await sql<{ id: string }>`
        insert into export_slots (user_id, expires_at)
        select ${userId}, now() + make_interval(mins => ${LEASE_MINUTES})
        where (select count(*) from export_slots where user_id = ${userId}) < ${limits.perUser}
        returning id`.execute(trx);
      return taken.rows[0]?.id ?? null;
    });
  }

  return {
    async send<T>(reply: FastifyReply, userId: string, csv: CsvExport<T>): Promise<FastifyReply> {
      const releaseLocal = slots.take(userId);
      if (!releaseLocal) throw new BusyError(limits.retryAfterSeconds);
      let shared: string | null;
      try {
        shared = await takeShared(userId);
      } catch (error) {
        releaseLocal();
        throw error;
      }
      if (!shared) {
        releaseLocal();
        throw new BusyError(limits.retryAfterSeconds);
      }
      const slot = shared;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        releaseLocal();
        // Its lease frees it anyway; a failed delete only keeps the person waiting that long at most.
        void db
          .deleteFrom('export_slots')
          .where('id', '=', slot)
          .execute()
          .catch((error: unknown) => log.warn({ err: error }, 'export slot not freed'));
      };
      reply.raw.once('close', release);
      const rows = csv.rows();
      let first: IteratorResult<T>;
      try {
        first = await rows.next();
      } catch (error) {
        release();
        throw error;
      }
      async function* lines() {
        yield csvLine(csv.columns);
        if (!first.done) yield csvLine(csv.cells(first.value));
        for await (const row of rows) yield csvLine(csv.cells(row));
      }
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csv.name}-${day}.csv"`)
        .send(Readable.from(lines()));
    },
  };
}

export type CsvExports = ReturnType<typeof createCsvExports>;
