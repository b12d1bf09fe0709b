import { z } from 'zod';
import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app.ts';

const healthSchema = z.object({ status: z.enum(['ok', 'degraded']), database: z.enum(['ok', 'unreachable']) });

export function healthRoutes({ db }: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/health',
      { schema: { tags: ['ops'], summary: 'Liveness and database state', response: { 200: healthSchema, 503: healthSchema } } },
      async (_request, reply) => {
        try {
          await sql`select 1`.execute(db);
          return { status: 'ok' as const, database: 'ok' as const };
        } catch {
          return reply.code(503).send({ status: 'degraded', database: 'unreachable' });
        }
      },
    );
  };
}
