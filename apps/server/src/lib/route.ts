import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  onRequestAsyncHookHandler,
  preHandlerAsyncHookHandler,
  preValidationAsyncHookHandler,
} from 'fastify';
import {
  MESSAGES,
  can,
  isMfaEnrollmentExempt,
  isMfaEnrollmentOverdue,
  type Endpoint,
  type ReplyOf,
  type ValidatedOf,
} from '@console/domain';
import type { VerifiedKey } from './api-key.ts';
import { callerOf, type Caller } from './caller.ts';
import { requireWritable } from './authorize.ts';
import { AppError, ForbiddenError } from './errors.ts';
import { apiKeyOf, type KeyAuthenticator } from './key-auth.ts';
import { requireStepUp } from './step-up.ts';

/** The request a handler receives: the endpoint's validated parts, and the caller for session routes. */
export interface RouteRequest<E extends Endpoint> {
  params: ValidatedOf<E>['params'];
  query: ValidatedOf<E>['query'];
  body: ValidatedOf<E>['body'];
  headers: ValidatedOf<E>['headers'];
  /** The signed-in caller (session routes only; public routes read `raw.caller`). */
  caller: E['auth'] extends 'session' ? Caller : null;
  /** The verified API key (key routes only). */
  apiKey: E['auth'] extends 'key' ? VerifiedKey : null;
  raw: FastifyRequest;
}

/** A handler answers the success body, or takes the reply itself (cookies, another status, a stream). */
export type RouteHandler<E extends Endpoint> = (request: RouteRequest<E>, reply: FastifyReply) => Promise<ReplyOf<E> | FastifyReply>;

export interface RouteOptions {
  /** Rate limits: before the key on a key route; once the body is read on the others (they may count it). */
  onRequest?: preHandlerAsyncHookHandler[];
  /** Runs after the body is read and before it is validated (batch sizes). */
  preValidation?: preValidationAsyncHookHandler[];
}

/**
 * A batch of more than `max` items in the body's array `field` is refused with 413 and a
 * message naming the maximum, before each item is validated.
 */
export function batchLimit(fields: readonly string[], max: number, message: string): preValidationAsyncHookHandler {
  return async (request) => {
    const body = request.body as Record<string, unknown> | null | undefined;
    if (!body || typeof body !== 'object') return;
    const items = fields.reduce((n, field) => n + (Array.isArray(body[field]) ? (body[field] as unknown[]).length : 0), 0);
    if (items > max) throw new AppError(413, 'batch_too_large', message);
  };
}

const STEP_UP_TEXT = {
  always:
    'Asks for a step-up: 401 `step_up_required` unless the session proved a second factor (or the password) recently; see `POST /auth/step-up` (`POST /auth/sso/step-up` for a session begun at the identity provider).',
  conditional:
    'May ask for a step-up (an amount above the house threshold, a price change): 401 `step_up_required` unless the session proved a second factor (or the password) recently; see `POST /auth/step-up` (`POST /auth/sso/step-up` for a session begun at the identity provider).',
} as const;

/** The operation's description: the permission or scope it takes, and whether it asks for a step-up. */
function descriptionOf(endpoint: Endpoint): string | undefined {
  const parts = [
    endpoint.permission && `Requires the \`${endpoint.permission}\` permission.`,
    endpoint.scope && `Takes an API key with the \`${endpoint.scope}\` scope.`,
    endpoint.stepUp && STEP_UP_TEXT[endpoint.stepUp],
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/** The Fastify schema of an endpoint: validation, serialization and the OpenAPI entry in one. */
export function schemaOf(endpoint: Endpoint): FastifySchema {
  const response = Object.fromEntries(Object.entries(endpoint.responses).filter(([, schema]) => schema !== null));
  return {
    operationId: endpoint.operationId,
    tags: [...endpoint.tags],
    summary: endpoint.summary,
    ...(descriptionOf(endpoint) && { description: descriptionOf(endpoint) }),
    ...(endpoint.params && { params: endpoint.params }),
    ...(endpoint.query && { querystring: endpoint.query }),
    ...(endpoint.body && { body: endpoint.body }),
    ...(endpoint.headers && { headers: endpoint.headers }),
    ...(Object.keys(response).length > 0 && { response }),
  } as FastifySchema;
}

/**
 * Registers endpoints' routes on an app: a session route authenticates the caller and checks
 * the endpoint's permission before the handler runs; a key route (the machine API) verifies
 * the API key and its scope before the body is even read; the handler applies the rest of
 * the rules through its service.
 */
export function routerOf(
  app: FastifyInstance,
  authenticate: (request: FastifyRequest) => Promise<void>,
  authenticateKey?: KeyAuthenticator,
) {
  if (!app.hasRequestDecorator('apiKey')) app.decorateRequest('apiKey', null);
  return function route<E extends Endpoint>(endpoint: E, handler: RouteHandler<E>, options: RouteOptions = {}): void {
    register(app, authenticate, authenticateKey, endpoint, handler, options);
  };
}

function register<E extends Endpoint>(
  app: FastifyInstance,
  authenticate: (request: FastifyRequest) => Promise<void>,
  authenticateKey: KeyAuthenticator | undefined,
  endpoint: E,
  handler: RouteHandler<E>,
  options: RouteOptions,
): void {
  const preHandler: preHandlerAsyncHookHandler[] = [];
  const onRequest: onRequestAsyncHookHandler[] = [];
  // A key route's limits run first, before the key (and body) is read. A public route's may
  // count the body (an e-mail), so they run once it is read. A session is authenticated
  // before the body is read: an anonymous or refused client never makes the server parse
  // and validate a body, nor learns the schema's messages.
  (endpoint.auth === 'key' ? onRequest : preHandler).push(...((options.onRequest ?? []) as onRequestAsyncHookHandler[]));
  if (endpoint.auth === 'key') {
    if (!authenticateKey) throw new Error(`${endpoint.method} ${endpoint.path} takes an API key: register it with the key authenticator`);
    onRequest.push(async (request, reply) => authenticateKey(request, reply, endpoint.scope));
  }
  if (endpoint.auth === 'session') {
    onRequest.push(async (request) => {
      await authenticate(request);
      // Past the second-factor policy's grace without a factor: only enrolling is left.
      if (isMfaEnrollmentOverdue(callerOf(request).mfaEnrollment, new Date()) && !isMfaEnrollmentExempt(endpoint.path)) {
        throw new AppError(403, 'mfa_enrollment_required', MESSAGES.mfaPolicy.enrollmentRequired);
      }
      // Every session route that changes something: never for the people of a frozen organization.
      if (endpoint.method !== 'GET') requireWritable(callerOf(request));
      if (endpoint.permission && !can(callerOf(request).role, endpoint.permission)) throw new ForbiddenError();
      // Moving money or secrets: a recent proof of a second factor (or password), once the permission holds.
      if (endpoint.stepUp === 'always') requireStepUp(callerOf(request));
    });
  }
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    schema: schemaOf(endpoint),
    ...(endpoint.bodyLimit && { bodyLimit: endpoint.bodyLimit }),
    ...(onRequest.length > 0 && { onRequest }),
    ...(options.preValidation && { preValidation: options.preValidation }),
    preHandler,
    handler: (request, reply) =>
      handler(
        {
          params: request.params as ValidatedOf<E>['params'],
          query: request.query as ValidatedOf<E>['query'],
          body: request.body as ValidatedOf<E>['body'],
          headers: request.headers as ValidatedOf<E>['headers'],
          caller: (endpoint.auth === 'session' ? callerOf(request) : null) as RouteRequest<E>['caller'],
          apiKey: (endpoint.auth === 'key' ? apiKeyOf(request) : null) as RouteRequest<E>['apiKey'],
          raw: request,
        },
        reply,
      ),
  });
}
