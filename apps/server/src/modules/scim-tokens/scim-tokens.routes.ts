import type { FastifyPluginAsync } from 'fastify';
import { scimTokensEndpoints as endpoints } from '@console/domain';
import { clientInfo } from '../../lib/request-info.ts';
import { routerOf } from '../../lib/route.ts';
import type { AppContext } from '../../context.ts';
import { createScimTokenIssue } from './create.ts';
import { createScimTokenReads } from './list.ts';
import { createScimTokenRevoke } from './revoke.ts';

/** An organization's SCIM tokens and the calls made with them (the SCIM door itself is the scim module's). */
export function scimTokensRoutes({ db, config, authenticate }: AppContext): FastifyPluginAsync {
  const deps = { db, appUrl: config.appUrl };
  const reads = createScimTokenReads(deps);
  const issue = createScimTokenIssue(deps);
  const { revoke } = createScimTokenRevoke(deps);
  return async (app) => {
    const route = routerOf(app, authenticate);
    route(endpoints.list, async ({ caller, params }) => reads.list(caller, params.id));
    route(endpoints.create, async ({ caller, params, body, raw }, reply) =>
      reply.code(201).send(await issue.create(caller, params.id, body, clientInfo(raw))),
    );
    route(endpoints.rotate, async ({ caller, params, raw }) => issue.rotate(caller, params.id, params.tokenId, clientInfo(raw)));
    route(endpoints.revoke, async ({ caller, params, raw }) => revoke(caller, params.id, params.tokenId, clientInfo(raw)));
    route(endpoints.calls, async ({ caller, params }) => reads.calls(caller, params.id));
  };
}
