import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app.ts';

export function dashboardRoutes({ authenticate }: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('preHandler', authenticate);
  };
}
