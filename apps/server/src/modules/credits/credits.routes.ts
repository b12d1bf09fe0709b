import type { FastifyPluginAsync } from 'fastify';
import { MESSAGES, USAGE_WINDOW, creditsEndpoints as endpoints, type LedgerEntry } from '@console/domain';
import { clientInfo } from '../../lib/request-info.ts';
import { batchLimit, routerOf } from '../../lib/route.ts';
import { requireStepUpAbove } from '../../lib/step-up.ts';
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
  'reversed_by',
  'external_ref',
  'id',
] as const;

function ledgerCells(entry: LedgerEntry): unknown[] {
  const meta = entry.metadata as { notes?: unknown; reason?: unknown; agent?: unknown };
  return [
    entry.created_at,
    entry.entry_type,
    entry.amount,
    entry.balance_after,
    entry.description,
    entry.actor?.name,
    entry.actor?.email,
    entry.counterparty?.name,
    entry.counterparty?.id,
    // An allocation's notes, or the reason of an adjustment, a refund or a reversal.
    meta.notes ?? meta.reason,
    // A consumption entry of metered usage: the agent's code and the units charged.
    entry.agent_type_id ? meta.agent : null,
    entry.units,
    entry.transaction_group,
    entry.reversed_by,
    entry.external_ref,
    entry.id,
  ];
}

export function creditsRoutes({ db, credits, authenticate, csvExports }: AppContext): FastifyPluginAsync {
  return async (app) => {
    const route = routerOf(app, authenticate);
    route(endpoints.allocate, async ({ caller, body, headers, raw }) => {
      // An allocation above the house's threshold asks for a step-up first.
      await requireStepUpAbove(db, caller, body.amount);
      return credits.allocate(caller, body, headers['idempotency-key'] ?? null, clientInfo(raw));
    });
    route(endpoints.reverseAllocation, async ({ caller, params, body, raw }) =>
      credits.reverseAllocation(caller, params.transactionId, body, clientInfo(raw)),
    );
    route(endpoints.adjust, async ({ caller, body, raw }) => ({ entry: await credits.adjust(caller, body, clientInfo(raw)) }));
    route(endpoints.importUsage, async ({ caller, body, raw }) => credits.importUsage(caller, body, clientInfo(raw)), {
      // More than a batch's maximum of events and refunds together is 413, before each is validated.
      preValidation: [batchLimit(['events', 'refunds'], USAGE_WINDOW.batchMax, MESSAGES.usage.batchTooLarge(USAGE_WINDOW.batchMax))],
    });
    route(endpoints.ledger, async ({ caller, query }) => credits.ledger(caller, query));
    route(endpoints.exportLedger, async ({ caller, query }, reply) =>
      csvExports.send(reply, caller.userId, {
        name: 'credit-ledger',
        columns: CSV_COLUMNS,
        cells: ledgerCells,
        rows: () => credits.exportRows(caller, { ...query, limit: 1000 }),
      }),
    );
  };
}
