import type { FastifyPluginAsync } from 'fastify';
import { apiKeysEndpoints as endpoints } from '@console/domain';
import { clientInfo } from '../../lib/request-info.ts';
import { routerOf } from '../../lib/route.ts';
import type { AppContext } from '../../context.ts';

/** An organization's API keys for the machine API (the machine routes themselves are usage's). */
export function apiKeysRoutes({ apiKeys, authenticate }: AppContext): FastifyPluginAsync {
  return async (app) => {
    const route = routerOf(app, authenticate);
    route(endpoints.list, async ({ caller, params, query }) => apiKeys.list(caller, params.id, query));
    route(endpoints.create, async ({ caller, params, body, raw }, reply) =>
      reply.code(201).send(await apiKeys.create(caller, params.id, body, clientInfo(raw))),
    );
    route(endpoints.update, async ({ caller, params, body, raw }) =>
      apiKeys.update(caller, params.id, params.keyId, body, clientInfo(raw)),
    );
    route(endpoints.roll, async ({ caller, params, body, raw }) => apiKeys.roll(caller, params.id, params.keyId, body, clientInfo(raw)));
    route(endpoints.revoke, async ({ caller, params, raw }) => apiKeys.revoke(caller, params.id, params.keyId, clientInfo(raw)));
  };
}
