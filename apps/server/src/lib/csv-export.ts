import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { csvLine, exportSlots, type ExportLimits } from './csv.ts';
import { BusyError } from './errors.ts';

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
 * The CSV exports of one server process. They all share one count of exports under way, so
 * the bounds per person and per process hold across every export route; beyond them the
 * answer is 429 with Retry-After. A slot is held until the answer is sent whole or its
 * connection closes. The first row is read before answering, so a refusal (403, 404) keeps
 * its own status instead of arriving as a broken download.
 */
export function createCsvExports(limits: ExportLimits) {
  const slots = exportSlots(limits);
  return {
    async send<T>(reply: FastifyReply, userId: string, csv: CsvExport<T>): Promise<FastifyReply> {
      const release = slots.take(userId);
      if (!release) throw new BusyError(limits.retryAfterSeconds);
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
