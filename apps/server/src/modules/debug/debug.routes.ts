import type { FastifyPluginAsync } from 'fastify';
import { debugEndpoints as endpoints } from '@console/domain';
import { routerOf } from '../../lib/route.ts';
import type { AppContext } from '../../context.ts';

export function debugRoutes({ debug, authenticate }: AppContext): FastifyPluginAsync {
  return async (app) => {
    const route = routerOf(app, authenticate);
    route(endpoints.outbox, async ({ caller }) => debug.outbox(caller));
  };
}
