import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import { activityEndpoints as endpoints, type ActivityEvent } from '@console/domain';
import { csvLine, exportSlots } from '../../lib/csv.ts';
import { BusyError } from '../../lib/errors.ts';
import { routerOf } from '../../lib/route.ts';
import type { AppContext } from '../../context.ts';

const CSV_COLUMNS = ['created_at', 'actor', 'actor_email', 'action', 'description', 'organization', 'organization_id', 'ip', 'id'] as const;

const activityCsvLine = (event: ActivityEvent) =>
  csvLine([event.created_at, event.actor.name, event.actor.email, event.action, event.sentence, event.organization?.name, event.organization?.id, event.ip, event.id]);

export function activityRoutes({ activity, authenticate, exportLimits }: AppContext): FastifyPluginAsync {
  return async (app) => {
    const route = routerOf(app, authenticate);
    route(endpoints.list, async ({ caller, query }) => activity.list(caller, query));
    const exports = exportSlots(exportLimits);
    route(endpoints.export, async ({ caller, query }, reply) => {
      const release = exports.take(caller.userId);
      if (!release) throw new BusyError(exportLimits.retryAfterSeconds);
      // The slot is held until the answer is sent whole or its connection closes.
      reply.raw.once('close', release);
      const rows = activity.exportRows(caller, query);
      let first: IteratorResult<ActivityEvent>;
      try {
        // Pull the first row before answering, so a refusal still gets its proper status.
        first = await rows.next();
      } catch (error) {
        release();
        throw error;
      }
      async function* lines() {
        yield csvLine(CSV_COLUMNS);
        if (!first.done) yield activityCsvLine(first.value);
        for await (const event of rows) yield activityCsvLine(event);
      }
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="activity-${day}.csv"`)
        .send(Readable.from(lines()));
    });
  };
}
