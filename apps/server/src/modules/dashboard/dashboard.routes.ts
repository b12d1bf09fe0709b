import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dashboardQuerySchema, dashboardSchema } from '@console/domain';
import { callerOf } from '../../lib/caller.ts';
import type { AppContext } from '../../app.ts';
import { createDashboardService } from './dashboard.service.ts';

export function dashboardRoutes({ db, organizations, authenticate }: AppContext): FastifyPluginAsyncZod {
  const dashboard = createDashboardService({ db, organizations });
  return async (app) => {
    app.addHook('preHandler', authenticate);

    app.get(
      '/dashboard',
      {
        schema: {
          tags: ['dashboard'],
          summary:
            "Every dashboard figure of one organization (the caller's own by default; another in scope with organizations.get), computed in SQL",
          querystring: dashboardQuerySchema,
          response: { 200: dashboardSchema },
        },
      },
      async (request) => dashboard.get(callerOf(request), request.query.organization_id),
    );
  };
}
