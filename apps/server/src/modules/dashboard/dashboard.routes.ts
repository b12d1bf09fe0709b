import type { FastifyPluginAsync } from 'fastify';
import { dashboardEndpoints as endpoints } from '@console/domain';
import { routerOf } from '../../lib/route.ts';
import type { AppContext } from '../../context.ts';

export function dashboardRoutes({ dashboard, authenticate }: AppContext): FastifyPluginAsync {
  return async (app) => {
    const route = routerOf(app, authenticate);
    route(endpoints.get, async ({ caller, query }) => dashboard.get(caller, query.organization_id));
  };
}
