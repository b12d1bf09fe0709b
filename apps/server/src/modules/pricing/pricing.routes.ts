import type { FastifyPluginAsync } from 'fastify';
import { pricingEndpoints as endpoints } from '@console/domain';
import { clientInfo } from '../../lib/request-info.ts';
import { routerOf } from '../../lib/route.ts';
import type { AppContext } from '../../context.ts';

export function pricingRoutes({ pricing, authenticate }: AppContext): FastifyPluginAsync {
  return async (app) => {
    const route = routerOf(app, authenticate);
    route(endpoints.book, async ({ caller, params }) => pricing.book(caller, params.id));
    route(endpoints.setPrice, async ({ caller, params, body, raw }) =>
      pricing.setPrice(caller, params.id, params.agentTypeId, body.price, clientInfo(raw)),
    );
    route(endpoints.childPrices, async ({ caller, params }) => pricing.childPrices.list(caller, params.id));
    route(endpoints.setChildPrice, async ({ caller, params, body, raw }) =>
      pricing.childPrices.set(caller, params.id, params.childId, params.agentTypeId, body.price, clientInfo(raw)),
    );
    route(endpoints.clearChildPrice, async ({ caller, params, raw }) =>
      pricing.childPrices.clear(caller, params.id, params.childId, params.agentTypeId, clientInfo(raw)),
    );
    route(endpoints.history, async ({ caller, params, query }) => pricing.history(caller, params.id, query.page));
    route(endpoints.paidHistory, async ({ caller, params }) => pricing.paidHistory(caller, params.id));
    route(endpoints.earnings, async ({ caller, params }) => pricing.earnings(caller, params.id));
  };
}
