import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { agentLimitSchema, billingResponseSchema, capacityResponseSchema, idParamsSchema } from '@console/domain';
import { callerOf } from '../../lib/caller.ts';
import { clientInfo } from '../../lib/request-info.ts';
import type { AppContext } from '../../app.ts';

const tags = ['billing'];

export function billingRoutes({ billing, authenticate }: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('preHandler', authenticate);

    app.get(
      '/organizations/:id/billing',
      { schema: { tags, summary: 'Billing settings, active agents and what the caller may change', params: idParamsSchema, response: { 200: billingResponseSchema } } },
      async (request) => billing.get(callerOf(request), request.params.id),
    );

    app.put(
      '/organizations/:id/agent-limit',
      {
        schema: {
          tags,
          summary: "Set a direct child's activated agent limit (or, for house admins, the own house's)",
          params: idParamsSchema,
          body: agentLimitSchema,
          response: { 200: billingResponseSchema },
        },
      },
      async (request) => billing.setAgentLimit(callerOf(request), request.params.id, request.body.activated_agent_limit, clientInfo(request)),
    );

    app.get(
      '/organizations/:id/capacity',
      { schema: { tags, summary: "An organization's limit, its children's limits and what is left", params: idParamsSchema, response: { 200: capacityResponseSchema } } },
      async (request) => billing.capacity(callerOf(request), request.params.id),
    );
  };
}
