import { Readable } from 'node:stream';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adjustmentSchema,
  allocationResultSchema,
  allocationSchema,
  ledgerEntrySchema,
  ledgerPageSchema,
  ledgerQuerySchema,
  usageImportResultSchema,
  usageImportSchema,
  type LedgerEntry,
} from '@console/domain';
import { callerOf } from '../../lib/caller.ts';
import { clientInfo } from '../../lib/request-info.ts';
import type { AppContext } from '../../app.ts';

const tags = ['credits'];

const idempotencyHeaders = z.object({
  'idempotency-key': z.string().trim().min(1).max(200).optional(),
});

const CSV_COLUMNS = ['created_at', 'entry_type', 'amount', 'balance_after', 'notes', 'counterparty_org_id', 'transaction_group', 'external_ref', 'id'] as const;

/** Quotes a CSV cell; a cell that a spreadsheet would run as a formula is made plain text. */
function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvLine(entry: LedgerEntry): string {
  const meta = entry.metadata as { notes?: unknown; to_org_id?: unknown; from_org_id?: unknown };
  const cells = [
    entry.created_at,
    entry.entry_type,
    entry.amount,
    entry.balance_after,
    meta.notes,
    meta.to_org_id ?? meta.from_org_id,
    entry.transaction_group,
    entry.external_ref,
    entry.id,
  ];
  return `${cells.map(csvCell).join(',')}\r\n`;
}

export function creditsRoutes({ credits, authenticate }: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('preHandler', authenticate);

    app.post(
      '/credits/allocations',
      {
        schema: {
          tags,
          summary: 'Move credits from your organization to an active direct child (Idempotency-Key honoured)',
          headers: idempotencyHeaders,
          body: allocationSchema,
          response: { 200: allocationResultSchema },
        },
      },
      async (request) =>
        credits.allocate(callerOf(request), request.body, request.headers['idempotency-key'] ?? null, clientInfo(request)),
    );

    app.post(
      '/credits/adjustments',
      {
        schema: {
          tags,
          summary: "House admins add or remove credits on their own house, with a reason",
          body: adjustmentSchema,
          response: { 200: z.object({ entry: ledgerEntrySchema }) },
        },
      },
      async (request) => ({ entry: await credits.adjust(callerOf(request), request.body, clientInfo(request)) }),
    );

    app.post(
      '/credits/usage',
      {
        schema: {
          tags,
          summary: 'House admins record consumption and refunds; external_ref makes each record idempotent',
          body: usageImportSchema,
          response: { 200: usageImportResultSchema },
        },
      },
      async (request) => credits.importUsage(callerOf(request), request.body.records, clientInfo(request)),
    );

    app.get(
      '/credits/ledger',
      {
        schema: {
          tags,
          summary: 'Ledger of an organization in scope, newest first, 20 a page with a cursor',
          querystring: ledgerQuerySchema,
          response: { 200: ledgerPageSchema },
        },
      },
      async (request) => credits.ledger(callerOf(request), request.query),
    );

    app.get(
      '/credits/ledger/export',
      {
        schema: {
          tags,
          summary: 'The same filtered entries as CSV, streamed',
          querystring: ledgerQuerySchema.omit({ cursor: true, limit: true }),
        },
      },
      async (request, reply) => {
        const rows = credits.exportRows(callerOf(request), { ...request.query, limit: 1000 });
        // Pull the first row before answering, so a refusal still gets its proper status.
        const first = await rows.next();
        async function* lines() {
          yield `${CSV_COLUMNS.join(',')}\r\n`;
          if (!first.done) yield csvLine(first.value);
          for await (const entry of rows) yield csvLine(entry);
        }
        const day = new Date().toISOString().slice(0, 10);
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="credit-ledger-${day}.csv"`)
          .send(Readable.from(lines()));
      },
    );
  };
}
