import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import { healthEndpoints as endpoints } from '@console/domain';
import { routerOf } from '../../lib/route.ts';
import type { AppContext } from '../../context.ts';

export function healthRoutes({ db, authenticate }: AppContext): FastifyPluginAsync {
  return async (app) => {
    const route = routerOf(app, authenticate);
    route(endpoints.check, async (_request, reply) => {
      try {
        await sql`select 1`.execute(db);
        return { status: 'ok' as const, database: 'ok' as const };
      } catch {
        return reply.code(503).send({ status: 'degraded', database: 'unreachable' });
      }
    });
  };
}
