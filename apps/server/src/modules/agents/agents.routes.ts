import type { FastifyPluginAsync } from 'fastify';
import { agentsEndpoints as endpoints } from '@console/domain';
import { clientInfo } from '../../lib/request-info.ts';
import { routerOf } from '../../lib/route.ts';
import { requireStepUp } from '../../lib/step-up.ts';
import type { AppContext } from '../../context.ts';

/** The agent catalog, activations and usage (API keys are their own module, the low-balance threshold is billing's). */
export function agentsRoutes({ agents, authenticate }: AppContext): FastifyPluginAsync {
  return async (app) => {
    const route = routerOf(app, authenticate);
    route(endpoints.listTypes, async ({ caller }) => agents.listTypes(caller));
    route(endpoints.createType, async ({ caller, body, raw }, reply) =>
      reply.code(201).send({ agent_type: await agents.createType(caller, body, clientInfo(raw)) }),
    );
    route(endpoints.updateType, async ({ caller, params, body, raw }) => {
      // The catalog price is the house's price book: changing it asks for a step-up.
      if (body.price !== undefined) requireStepUp(caller);
      return { agent_type: await agents.updateType(caller, params.id, body, clientInfo(raw)) };
    });
    route(endpoints.retireType, async ({ caller, params, raw }) => ({
      agent_type: await agents.retireType(caller, params.id, clientInfo(raw)),
    }));
    route(endpoints.listActivations, async ({ caller, params }) => agents.listActivations(caller, params.id));
    route(endpoints.activate, async ({ caller, params, body, raw }, reply) =>
      reply.code(201).send({ activation: await agents.activate(caller, params.id, body.agent_type_id, clientInfo(raw)) }),
    );
    route(endpoints.deactivate, async ({ caller, params, raw }) => ({
      activation: await agents.deactivate(caller, params.id, params.activationId, clientInfo(raw)),
    }));
    route(endpoints.setActivationCap, async ({ caller, params, body, raw }) => ({
      activation: await agents.setCap(caller, params.id, params.activationId, body, clientInfo(raw)),
    }));
    route(endpoints.usage, async ({ caller, params, query }) => agents.usage(caller, params.id, query.days));
  };
}
