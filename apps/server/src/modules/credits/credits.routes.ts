import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import { creditsEndpoints as endpoints, type LedgerEntry } from '@console/domain';
import { clientInfo } from '../../lib/request-info.ts';
import { routerOf } from '../../lib/route.ts';
import type { AppContext } from '../../context.ts';

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

export function creditsRoutes({ credits, authenticate }: AppContext): FastifyPluginAsync {
  return async (app) => {
    const route = routerOf(app, authenticate);
    route(endpoints.allocate, async ({ caller, body, headers, raw }) =>
      credits.allocate(caller, body, headers['idempotency-key'] ?? null, clientInfo(raw)),
    );
    route(endpoints.adjust, async ({ caller, body, raw }) => ({ entry: await credits.adjust(caller, body, clientInfo(raw)) }));
    route(endpoints.importUsage, async ({ caller, body, raw }) => credits.importUsage(caller, body.records, clientInfo(raw)));
    route(endpoints.ledger, async ({ caller, query }) => credits.ledger(caller, query));
    route(endpoints.exportLedger, async ({ caller, query }, reply) => {
      const rows = credits.exportRows(caller, { ...query, limit: 1000 });
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
    });
  };
}
