import type { FastifyPluginAsync } from 'fastify';
import { agentsEndpoints, billingEndpoints as endpoints } from '@console/domain';
import { clientInfo } from '../../lib/request-info.ts';
import { routerOf } from '../../lib/route.ts';
import type { AppContext } from '../../context.ts';

export function billingRoutes({ billing, authenticate }: AppContext): FastifyPluginAsync {
  return async (app) => {
    const route = routerOf(app, authenticate);
    route(endpoints.get, async ({ caller, params }) => billing.get(caller, params.id));
    route(endpoints.setAgentLimit, async ({ caller, params, body, raw }) =>
      billing.setAgentLimit(caller, params.id, body.activated_agent_limit, clientInfo(raw)),
    );
    route(endpoints.capacity, async ({ caller, params }) => billing.capacity(caller, params.id));
    route(endpoints.spendControls, async ({ caller, params }) => billing.spendControls(caller, params.id));
    route(endpoints.setSpendControls, async ({ caller, params, body, raw }) =>
      billing.setSpendControls(caller, params.id, body, clientInfo(raw)),
    );
    route(agentsEndpoints.setLowBalanceThreshold, async ({ caller, params, body, raw }) =>
      billing.setLowBalanceThreshold(caller, params.id, body.low_balance_threshold, clientInfo(raw)),
    );
  };
}
