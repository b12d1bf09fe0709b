import type { FastifyPluginAsync } from 'fastify';
import { apiKeysEndpoints as endpoints } from '@console/domain';
import { clientInfo } from '../../lib/request-info.ts';
import { routerOf } from '../../lib/route.ts';
import type { AppContext } from '../../context.ts';

/** An organization's API keys for the machine API (the machine routes themselves are usage's). */
export function apiKeysRoutes({ apiKeys, authenticate }: AppContext): FastifyPluginAsync {
  return async (app) => {
    const route = routerOf(app, authenticate);
    route(endpoints.list, async ({ caller, params }) => apiKeys.list(caller, params.id));
    route(endpoints.create, async ({ caller, params, body, raw }, reply) =>
      reply.code(201).send(await apiKeys.create(caller, params.id, body, clientInfo(raw))),
    );
    route(endpoints.revoke, async ({ caller, params, raw }) => apiKeys.revoke(caller, params.id, params.keyId, clientInfo(raw)));
  };
}
