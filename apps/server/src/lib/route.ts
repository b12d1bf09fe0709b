import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, preHandlerAsyncHookHandler } from 'fastify';
import { can, type Endpoint, type ReplyOf, type ValidatedOf } from '@console/domain';
import { callerOf, type Caller } from './caller.ts';
import { requireWritable } from './authorize.ts';
import { ForbiddenError } from './errors.ts';

/** The request a handler receives: the endpoint's validated parts, and the caller for session routes. */
export interface RouteRequest<E extends Endpoint> {
  params: ValidatedOf<E>['params'];
  query: ValidatedOf<E>['query'];
  body: ValidatedOf<E>['body'];
  headers: ValidatedOf<E>['headers'];
  /** The signed-in caller (session routes only; public routes read `raw.caller`). */
  caller: E['auth'] extends 'session' ? Caller : null;
  raw: FastifyRequest;
}

/** A handler answers the success body, or takes the reply itself (cookies, another status, a stream). */
export type RouteHandler<E extends Endpoint> = (request: RouteRequest<E>, reply: FastifyReply) => Promise<ReplyOf<E> | FastifyReply>;

export interface RouteOptions {
  /** Runs before authentication (rate limits). */
  onRequest?: preHandlerAsyncHookHandler[];
}

/** The Fastify schema of an endpoint: validation, serialization and the OpenAPI entry in one. */
export function schemaOf(endpoint: Endpoint): FastifySchema {
  const response = Object.fromEntries(Object.entries(endpoint.responses).filter(([, schema]) => schema !== null));
  return {
    tags: [...endpoint.tags],
    summary: endpoint.summary,
    ...(endpoint.permission && { description: `Requires the \`${endpoint.permission}\` permission.` }),
    ...(endpoint.params && { params: endpoint.params }),
    ...(endpoint.query && { querystring: endpoint.query }),
    ...(endpoint.body && { body: endpoint.body }),
    ...(endpoint.headers && { headers: endpoint.headers }),
    ...(Object.keys(response).length > 0 && { response }),
    ...(endpoint.auth === 'public' && { security: [] }),
  } as FastifySchema;
}

/**
 * Registers endpoints' routes on an app: a session route authenticates the caller and checks
 * the endpoint's permission before the handler runs; the handler applies the rest of the
 * rules through its service.
 */
export function routerOf(app: FastifyInstance, authenticate: (request: FastifyRequest) => Promise<void>) {
  return function route<E extends Endpoint>(endpoint: E, handler: RouteHandler<E>, options: RouteOptions = {}): void {
    register(app, authenticate, endpoint, handler, options);
  };
}

function register<E extends Endpoint>(
  app: FastifyInstance,
  authenticate: (request: FastifyRequest) => Promise<void>,
  endpoint: E,
  handler: RouteHandler<E>,
  options: RouteOptions,
): void {
  const preHandler: preHandlerAsyncHookHandler[] = [...(options.onRequest ?? [])];
  if (endpoint.auth === 'session') {
    preHandler.push(async (request) => {
      await authenticate(request);
      // Every session route that changes something: never for the people of a frozen organization.
      if (endpoint.method !== 'GET') requireWritable(callerOf(request));
      if (endpoint.permission && !can(callerOf(request).role, endpoint.permission)) throw new ForbiddenError();
    });
  }
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    schema: schemaOf(endpoint),
    preHandler,
    handler: (request, reply) =>
      handler(
        {
          params: request.params as ValidatedOf<E>['params'],
          query: request.query as ValidatedOf<E>['query'],
          body: request.body as ValidatedOf<E>['body'],
          headers: request.headers as ValidatedOf<E>['headers'],
          caller: (endpoint.auth === 'session' ? callerOf(request) : null) as RouteRequest<E>['caller'],
          raw: request,
        },
        reply,
      ),
  });
}
