import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import { healthEndpoints as endpoints } from '@console/domain';
import { routerOf } from '../../lib/route.ts';
import { CONSOLE_VERSION } from '../../lib/version.ts';
import type { AppContext } from '../../context.ts';

export function healthRoutes({ db, authenticate }: AppContext): FastifyPluginAsync {
  return async (app) => {
    const route = routerOf(app, authenticate);
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
  };
}
