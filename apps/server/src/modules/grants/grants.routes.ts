import type { FastifyPluginAsync } from 'fastify';
import { grantsEndpoints as endpoints } from '@console/domain';
import { routerOf } from '../../lib/route.ts';
import type { AppContext } from '../../context.ts';

export function grantsRoutes({ grants, authenticate }: AppContext): FastifyPluginAsync {
  return async (app) => {
    const route = routerOf(app, authenticate);
    route(endpoints.list, async ({ caller, params, query }) => grants.list(caller, params.id, query.all === 'true'));
    route(endpoints.expiring, async ({ caller, query }) => grants.expiring(caller, query.days));
  };
}
