import type { FastifyPluginAsync } from 'fastify';
import { MESSAGES, USAGE_WINDOW, machineEndpoints as endpoints } from '@console/domain';
import { clientInfo } from '../../lib/request-info.ts';
import { batchLimit, routerOf } from '../../lib/route.ts';
import type { AppContext } from '../../context.ts';

/** More than a batch's maximum of events is 413, before each event is validated. */
export const usageBatchLimit = batchLimit(['events'], USAGE_WINDOW.batchMax, MESSAGES.usage.batchTooLarge(USAGE_WINDOW.batchMax));

/** The machine API an agent runtime calls with an API key. */
export function usageRoutes({ usage, authenticate, authenticateKey, keyUses, machineCounter }: AppContext): FastifyPluginAsync {
  return async (app) => {
    app.addHook('onClose', async () => {
      await keyUses.close();
      await machineCounter.close();
    });
    const route = routerOf(app, authenticate, authenticateKey);
    route(
      endpoints.reportUsage,
      async ({ apiKey, body, raw }) => usage.record({ kind: 'key', key: apiKey }, body.events, clientInfo(raw)),
      {
        preValidation: [usageBatchLimit],
      },
    );
    route(endpoints.heartbeat, async ({ apiKey, body, raw }) => usage.heartbeat(apiKey, body, clientInfo(raw)));
    route(endpoints.entitlement, async ({ apiKey, query }) => usage.entitlement(apiKey, query));
  };
}
