import type { FastifyPluginAsync } from 'fastify';
import { MESSAGES, USAGE_WINDOW, machineEndpoints as endpoints, usageEndpoints, type UsageEventRow } from '@console/domain';
import { clientInfo } from '../../lib/request-info.ts';
import { batchLimit, routerOf } from '../../lib/route.ts';
import type { AppContext } from '../../context.ts';

/** More than a batch's maximum of events is 413, before each event is validated. */
export const usageBatchLimit = batchLimit(['events'], USAGE_WINDOW.batchMax, MESSAGES.usage.batchTooLarge(USAGE_WINDOW.batchMax));

const EVENT_COLUMNS = [
  'occurred_at',
  'received_at',
  'id',
  'agent',
  'units',
  'price',
  'credits_charged',
  'ledger_entry_id',
  'metadata',
  'organization_id',
] as const;

const eventCells = (event: UsageEventRow): unknown[] => [
  event.occurred_at,
  event.received_at,
  event.id,
  event.agent,
  event.units,
  event.price,
  event.credits_charged,
  event.ledger_entry_id,
  Object.keys(event.metadata).length > 0 ? JSON.stringify(event.metadata) : null,
  event.organization_id,
];

/** The machine API an agent runtime calls with an API key, and the console's reading of the stored events. */
export function usageRoutes({
  usage,
  authenticate,
  authenticateKey,
  keyUses,
  machineCounter,
  csvExports,
  metrics,
}: AppContext): FastifyPluginAsync {
  return async (app) => {
    app.addHook('onClose', async () => {
      await keyUses.close();
      await machineCounter.close();
    });
    const route = routerOf(app, authenticate, authenticateKey);
    route(
      endpoints.reportUsage,
      async ({ apiKey, body, raw }) => {
        const result = await usage.record({ kind: 'key', key: apiKey }, body.events, clientInfo(raw));
        metrics?.usageBatch(result);
        return result;
      },
      {
        preValidation: [usageBatchLimit],
      },
    );
    route(endpoints.heartbeat, async ({ apiKey, body, raw }) => usage.heartbeat(apiKey, body, clientInfo(raw)));
    route(endpoints.entitlement, async ({ apiKey, query }) => usage.entitlement(apiKey, query));
    route(endpoints.listUsageEvents, async ({ apiKey, query }) => usage.events.listForKey(apiKey, query));
    route(usageEndpoints.listEvents, async ({ caller, query }) => usage.events.listForCaller(caller, query));
    route(usageEndpoints.exportEvents, async ({ caller, query }, reply) =>
      csvExports.send(reply, caller.userId, {
        name: 'usage-events',
        columns: EVENT_COLUMNS,
        cells: eventCells,
        rows: () => usage.events.exportForCaller(caller, query),
      }),
    );
  };
}
