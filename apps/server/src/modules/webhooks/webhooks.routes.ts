import type { FastifyPluginAsync } from 'fastify';
import { WEBHOOKS, webhooksEndpoints as endpoints } from '@console/domain';
import { clientInfo } from '../../lib/request-info.ts';
import { routerOf } from '../../lib/route.ts';
import type { AppContext } from '../../context.ts';
import { normalizeCreate } from './endpoints.ts';

/** An organization's webhook endpoints and their delivery logs (the sending is the dispatcher's). */
export function webhooksRoutes({ webhooks, authenticate }: AppContext): FastifyPluginAsync {
  return async (app) => {
    const route = routerOf(app, authenticate);
    route(endpoints.list, async ({ caller, params }) => webhooks.list(caller, params.id));
    route(endpoints.create, async ({ caller, params, body, raw }, reply) =>
      reply.code(201).send(await webhooks.create(caller, params.id, normalizeCreate(body), clientInfo(raw))),
    );
    route(endpoints.update, async ({ caller, params, body, raw }) =>
      webhooks.update(caller, params.id, params.endpointId, body, clientInfo(raw)),
    );
    route(endpoints.remove, async ({ caller, params, raw }) => webhooks.remove(caller, params.id, params.endpointId, clientInfo(raw)));
    route(endpoints.rotate, async ({ caller, params, body, raw }) =>
      webhooks.rotate(caller, params.id, params.endpointId, body.grace_hours ?? WEBHOOKS.defaultRotationGraceHours, clientInfo(raw)),
    );
    route(endpoints.test, async ({ caller, params, raw }, reply) =>
      reply.code(202).send(await webhooks.test(caller, params.id, params.endpointId, clientInfo(raw))),
    );
    route(endpoints.deliveries, async ({ caller, params, query }) => webhooks.deliveries(caller, params.id, params.endpointId, query));
    route(endpoints.redeliver, async ({ caller, params, raw }, reply) =>
      reply.code(202).send(await webhooks.redeliver(caller, params.id, params.endpointId, params.deliveryId, clientInfo(raw))),
    );
    route(endpoints.redeliverFailed, async ({ caller, params, body, raw }, reply) =>
      reply.code(202).send(await webhooks.redeliverFailed(caller, params.id, params.endpointId, body.since, clientInfo(raw))),
    );
  };
}
