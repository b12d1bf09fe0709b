import type { FastifyPluginAsync } from 'fastify';
import { activityEndpoints as endpoints, type ActivityEvent } from '@console/domain';
import { routerOf } from '../../lib/route.ts';
import type { AppContext } from '../../context.ts';

const CSV_COLUMNS = ['created_at', 'actor', 'actor_email', 'action', 'description', 'organization', 'organization_id', 'ip', 'id'] as const;

const activityCells = (event: ActivityEvent) => [
  event.created_at,
  event.actor.name,
  event.actor.email,
  event.action,
  event.sentence,
  event.organization?.name,
  event.organization?.id,
  event.ip,
  event.id,
];

export function activityRoutes({ activity, authenticate, csvExports }: AppContext): FastifyPluginAsync {
  return async (app) => {
    const route = routerOf(app, authenticate);
    route(endpoints.list, async ({ caller, query }) => activity.list(caller, query));
    route(endpoints.export, async ({ caller, query }, reply) =>
      csvExports.send(reply, caller.userId, {
        name: 'activity',
        columns: CSV_COLUMNS,
        cells: activityCells,
        rows: () => activity.exportRows(caller, query),
      }),
    );
  };
}
