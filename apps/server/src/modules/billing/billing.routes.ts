import type { FastifyPluginAsync } from 'fastify';
import { agentsEndpoints, alertLinesEndpoints, billingEndpoints as endpoints } from '@console/domain';
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
    route(alertLinesEndpoints.list, async ({ caller, params }) => billing.alertLines.list(caller, params.id));
    route(alertLinesEndpoints.create, async ({ caller, params, body, raw }, reply) =>
      reply.code(201).send(await billing.alertLines.create(caller, params.id, body, clientInfo(raw))),
    );
    route(alertLinesEndpoints.update, async ({ caller, params, body, raw }) =>
      billing.alertLines.update(caller, params.id, params.lineId, body, clientInfo(raw)),
    );
    route(alertLinesEndpoints.remove, async ({ caller, params, raw }, reply) => {
      await billing.alertLines.remove(caller, params.id, params.lineId, clientInfo(raw));
      return reply.code(204).send();
    });
  };
}
