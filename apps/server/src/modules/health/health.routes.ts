import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import { healthEndpoints as endpoints } from '@console/domain';
import { routerOf } from '../../lib/route.ts';
import { CONSOLE_VERSION } from '../../lib/version.ts';
import type { AppContext } from '../../context.ts';
import { createReadiness } from './readiness.ts';

export function healthRoutes({ db, authenticate, reads, lifecycle }: AppContext): FastifyPluginAsync {
  return async (app) => {
    const route = routerOf(app, authenticate);
    // Liveness, for balancers: the process answers (and says whether its database does).
    route(endpoints.check, async (_request, reply) => {
      try {
        // The schema version is the last migration applied: read from the database, not the files.
        const { rows } = await sql<{ version: number }>`select coalesce(max(version), 0)::int as version from schema_migrations`.execute(
          db,
        );
        return { status: 'ok' as const, database: 'ok' as const, version: CONSOLE_VERSION, schema_version: rows[0]!.version };
      } catch {
        return reply.code(503).send({ status: 'degraded', database: 'unreachable', version: CONSOLE_VERSION, schema_version: null });
      }
    });
    // Readiness: 200 when this server should take traffic, 503 with the reason otherwise.
    const readiness = createReadiness({ db, replica: reads.replica?.db ?? null, lifecycle });
    route(endpoints.ready, async (_request, reply) => {
      const answer = await readiness();
      // Closing: this connection is not kept for another request, as with every answer from then on.
      if (answer.closing) void reply.header('connection', 'close');
      return reply.code(answer.status === 'ready' ? 200 : 503).send(answer);
    });
  };
}
