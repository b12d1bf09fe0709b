import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES, SCIM_CONTENT_TYPE } from '@console/domain';
import { limitBy } from '../../lib/rate-limit.ts';
import type { AppContext } from '../../context.ts';
import { createScimAuthenticator, scimActorOf } from './auth.ts';
import { recordCall } from './calls.ts';
import { createDiscovery } from './discovery.ts';
import { ScimError, sendScimFailure } from './errors.ts';
import { createGroupDelete } from './group-delete.ts';
import { createGroupWrites } from './group-write.ts';
import { createGroupReads } from './groups-read.ts';
import type { ListQuery } from './paging.ts';
import { createUserCreate } from './user-create.ts';
import { createUserDelete } from './user-delete.ts';
import { createUserUpdate } from './user-update.ts';
import { createUserReads } from './users-read.ts';

type Request = FastifyRequest<{ Params: { id: string }; Querystring: ListQuery }>;

/** A SCIM answer: its content type, and the resource's version as its ETag. */
function answer(reply: FastifyReply, status: number, body: unknown, resource?: { meta: { version: string; location: string } }) {
  reply.code(status).type(`${SCIM_CONTENT_TYPE}; charset=utf-8`);
  if (resource) reply.header('etag', resource.meta.version);
  if (resource && status === 201) reply.header('location', resource.meta.location);
  return reply.send(body);
}

const ifMatch = (request: FastifyRequest) => request.headers['if-match'];

/**
 * SCIM 2.0 at /scim/v2, for an organization's identity provider. Outside /api: the RFC's own
 * shapes, errors and content type. The address is limited, then the bearer token looked up,
 * then the token limited, all before a body is read; every call of a known token is recorded.
 */
export function scimRoutes({ db, config, rateLimits }: AppContext): FastifyPluginAsync {
  const deps = { db, baseUrl: `${config.appUrl}/scim/v2` };
  const authenticate = createScimAuthenticator(db);
  const discovery = createDiscovery(deps.baseUrl);
  const userReads = createUserReads(deps);
  const { create: createUser } = createUserCreate(deps);
  const userUpdate = createUserUpdate(deps);
  const { remove: removeUser } = createUserDelete(deps);
  const groupReads = createGroupReads(deps);
  const groupWrites = createGroupWrites(deps);
  const { remove: removeGroup } = createGroupDelete(deps);

  return async (app) => {
    // Not part of the console's API document: SCIM is described by its RFCs and /Schemas.
    app.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true };
    });
    app.decorateRequest('scimToken', null);
    app.decorateRequest('scimOutcome', null);
    app.addContentTypeParser(SCIM_CONTENT_TYPE, { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
    app.setErrorHandler((error, request, reply) =>
      sendScimFailure(error instanceof Error ? error : new Error(String(error)), request, reply),
    );

    const windowSeconds = rateLimits.scimWindowSeconds;
    app.addHook('onRequest', limitBy(app, [{ name: 'scim:address', max: rateLimits.scimPerAddress, windowSeconds, key: (r) => r.ip }]));
    app.addHook('onRequest', authenticate);
    app.addHook(
      'onRequest',
      limitBy(app, [{ name: 'scim:token', max: rateLimits.scimPerToken, windowSeconds, key: (r) => r.scimToken?.id ?? null }]),
    );
    // Fastify reads text/plain too: a SCIM body is JSON, anything else is 415.
    app.addHook('preValidation', async (request) => {
      const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
      if (request.body !== undefined && type && type !== 'application/json' && type !== SCIM_CONTENT_TYPE) {
        throw new ScimError(415, MESSAGES.identity.scimContentType);
      }
    });
    app.addHook('onSend', async (request, reply, payload) => {
      reply.header('cache-control', 'no-store');
      await recordCall(db, request, reply.statusCode);
      return payload;
    });
    app.setNotFoundHandler((request, reply) =>
      sendScimFailure(new ScimError(404, MESSAGES.identity.scimNoRoute(request.method, request.url.split('?')[0]!)), request, reply),
    );

    const outcome = (request: FastifyRequest, text: string) => {
      request.scimOutcome = text;
    };

    // Discovery
    app.get('/ServiceProviderConfig', async (_request, reply) => answer(reply, 200, discovery.serviceProviderConfig()));
    app.get('/ResourceTypes', async (_request, reply) => answer(reply, 200, discovery.resourceTypes()));
    app.get('/ResourceTypes/:id', async (request: Request, reply) => answer(reply, 200, discovery.resourceType(request.params.id)));
    app.get('/Schemas', async (_request, reply) => answer(reply, 200, discovery.schemas()));
    app.get('/Schemas/:id', async (request: Request, reply) => answer(reply, 200, discovery.schema(request.params.id)));

    // Users
    app.get('/Users', async (request: Request, reply) => {
      const page = await userReads.list(scimActorOf(request), request.query);
      outcome(request, `listed ${page.itemsPerPage} of ${page.totalResults} users`);
      return answer(reply, 200, page);
    });
    app.post('/Users', async (request, reply) => {
      const user = await createUser(scimActorOf(request), request.body);
      outcome(request, `created ${user.userName}`);
      return answer(reply, 201, user, user);
    });
    app.get('/Users/:id', async (request: Request, reply) => {
      const user = await userReads.get(scimActorOf(request), request.params.id);
      outcome(request, `read ${user.userName}`);
      return answer(reply, 200, user, user);
    });
    app.put('/Users/:id', async (request: Request, reply) => {
      const done = await userUpdate.replace(scimActorOf(request), request.params.id, request.body, ifMatch(request));
      outcome(request, done.outcome);
      return answer(reply, 200, done.user, done.user);
    });
    app.patch('/Users/:id', async (request: Request, reply) => {
      const done = await userUpdate.patch(scimActorOf(request), request.params.id, request.body, ifMatch(request));
      outcome(request, done.outcome);
      return answer(reply, 200, done.user, done.user);
    });
    app.delete('/Users/:id', async (request: Request, reply) => {
      outcome(request, `deleted ${await removeUser(scimActorOf(request), request.params.id, ifMatch(request))}`);
      return reply.code(204).send();
    });

    // Groups
    app.get('/Groups', async (request: Request, reply) => {
      const page = await groupReads.list(scimActorOf(request), request.query);
      outcome(request, `listed ${page.itemsPerPage} of ${page.totalResults} groups`);
      return answer(reply, 200, page);
    });
    app.post('/Groups', async (request, reply) => {
      const group = await groupWrites.create(scimActorOf(request), request.body);
      outcome(request, `created group ${group.displayName}`);
      return answer(reply, 201, group, group);
    });
    app.get('/Groups/:id', async (request: Request, reply) => {
      const group = await groupReads.get(scimActorOf(request), request.params.id, request.query);
      outcome(request, `read group ${group.displayName}`);
      return answer(reply, 200, group, group);
    });
    app.put('/Groups/:id', async (request: Request, reply) => {
      const done = await groupWrites.replace(scimActorOf(request), request.params.id, request.body, ifMatch(request));
      outcome(request, `${done.changed ? 'updated' : 'unchanged'} group ${done.group.displayName}`);
      return answer(reply, 200, done.group, done.group);
    });
    app.patch('/Groups/:id', async (request: Request, reply) => {
      const done = await groupWrites.patch(scimActorOf(request), request.params.id, request.body, ifMatch(request));
      outcome(request, `${done.changed ? 'updated' : 'unchanged'} group ${done.group.displayName}`);
      return answer(reply, 200, done.group, done.group);
    });
    app.delete('/Groups/:id', async (request: Request, reply) => {
      outcome(request, `deleted group ${await removeGroup(scimActorOf(request), request.params.id, ifMatch(request))}`);
      return reply.code(204).send();
    });
  };
}
