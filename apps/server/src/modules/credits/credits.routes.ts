import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import { MESSAGES, USAGE_WINDOW, creditsEndpoints as endpoints, type LedgerEntry } from '@console/domain';
import { csvLine, exportSlots } from '../../lib/csv.ts';
import { BusyError } from '../../lib/errors.ts';
import { clientInfo } from '../../lib/request-info.ts';
import { batchLimit, routerOf } from '../../lib/route.ts';
import type { AppContext } from '../../context.ts';

const CSV_COLUMNS = [
  'created_at',
  'entry_type',
  'amount',
  'balance_after',
  'description',
  'actor',
  'actor_email',
  'counterparty',
  'counterparty_org_id',
  'notes',
  'agent',
  'units',
  'transaction_group',
  'external_ref',
  'id',
] as const;

function ledgerCsvLine(entry: LedgerEntry): string {
  const meta = entry.metadata as { notes?: unknown; agent?: unknown };
  return csvLine([
    entry.created_at,
    entry.entry_type,
    entry.amount,
    entry.balance_after,
    entry.description,
    entry.actor?.name,
    entry.actor?.email,
    entry.counterparty?.name,
    entry.counterparty?.id,
    meta.notes,
    // A consumption entry of metered usage: the agent's code and the units charged.
    entry.agent_type_id ? meta.agent : null,
    entry.units,
    entry.transaction_group,
    entry.external_ref,
    entry.id,
  ]);
}

export function creditsRoutes({ credits, authenticate, exportLimits }: AppContext): FastifyPluginAsync {
  return async (app) => {
    const route = routerOf(app, authenticate);
    route(endpoints.allocate, async ({ caller, body, headers, raw }) =>
      credits.allocate(caller, body, headers['idempotency-key'] ?? null, clientInfo(raw)),
    );
    route(endpoints.adjust, async ({ caller, body, raw }) => ({ entry: await credits.adjust(caller, body, clientInfo(raw)) }));
    route(endpoints.importUsage, async ({ caller, body, raw }) => credits.importUsage(caller, body, clientInfo(raw)), {
      // More than a batch's maximum of events and refunds together is 413, before each is validated.
      preValidation: [batchLimit(['events', 'refunds'], USAGE_WINDOW.batchMax, MESSAGES.usage.batchTooLarge(USAGE_WINDOW.batchMax))],
    });
    route(endpoints.ledger, async ({ caller, query }) => credits.ledger(caller, query));
    const exports = exportSlots(exportLimits);
    route(endpoints.exportLedger, async ({ caller, query }, reply) => {
      const release = exports.take(caller.userId);
      if (!release) throw new BusyError(exportLimits.retryAfterSeconds);
      // The slot is held until the answer is sent whole or its connection closes.
      reply.raw.once('close', release);
      const rows = credits.exportRows(caller, { ...query, limit: 1000 });
      let first: IteratorResult<LedgerEntry>;
      try {
        // Pull the first row before answering, so a refusal still gets its proper status.
        first = await rows.next();
      } catch (error) {
        release();
        throw error;
      }
      async function* lines() {
        yield csvLine(CSV_COLUMNS);
        if (!first.done) yield ledgerCsvLine(first.value);
        for await (const entry of rows) yield ledgerCsvLine(entry);
      }
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="credit-ledger-${day}.csv"`)
        .send(Readable.from(lines()));
    });
  };
}
