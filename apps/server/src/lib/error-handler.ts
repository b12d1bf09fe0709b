import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERROR_CODES, MESSAGES, type ErrorBody } from '@console/domain';
import { AppError, UnavailableError } from './errors.ts';

/**
 * Codes that mean "the database cannot be reached right now": socket errors of the
 * connection (refused, reset, timed out, closed while writing, no route, host name not
 * resolved) and PostgreSQL's own refusals (SQLSTATE class 08 connection exception;
 * 57P01-03 shutting down, crashed, starting up; 53300 too many connections; 25006 read-only).
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  // read_only_sql_transaction: a write reached a standby (a primary demoted under it); the
  // connection is dropped and the next one looks for the new primary.
  '25006',
]);

/**
 * pg and pg-pool report a lost or never-made connection with a plain Error that has no
 * `code`, so these are matched by their exact message (pg 8 / pg-pool 3):
 * - waiting for a pool slot longer than connectionTimeoutMillis;
 * - a new connection not established within it;
 * - the socket closed under a client, or the client ended with queries queued;
 * - a query sent to a client whose connection already failed.
 */
const UNAVAILABLE_MESSAGES = new Set([
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
]);

/** True when a failure, or what caused it, means the database is unreachable (then 503, not 500). */
export function isDatabaseUnreachable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 5) return false;
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  if (UNAVAILABLE_MESSAGES.has(error.message)) return true;
  // net.connect tries every address of a host name and may fail with an AggregateError.
  const inner = error instanceof AggregateError ? [...error.errors, error.cause] : [error.cause];
  return inner.some((e) => isDatabaseUnreachable(e, depth + 1));
}

/** deadlock_detected, serialization_failure. */
const CONCURRENT_CHANGE_CODES = new Set(['40P01', '40001']);

/** unique_violation: two requests raced to save the same unique value. */
const UNIQUE_VIOLATION = '23505';

/** What a unique violation means to the person, by the index that refused it. */
const DUPLICATE_MESSAGES: Record<string, string> = {
  users_email_lower_idx: MESSAGES.invitations.accountExists,
  invitations_pending_email_idx: MESSAGES.invitations.alreadyPending,
  // Two organizations verifying or approving one domain at once: the second is refused.
  identity_domains_in_effect: MESSAGES.identity.domainTaken,
  identity_domains_organization_id_domain_key: MESSAGES.identity.domainClaimedAlready,
};

/** The message of a unique violation: the index's own words, or the generic one. */
export function duplicateMessage(error: unknown): string {
  const constraint = (error as { constraint?: unknown }).constraint;
  return (typeof constraint === 'string' && DUPLICATE_MESSAGES[constraint]) || MESSAGES.generic.duplicate;
}

/**
 * The client went away before its request was read or answered (it closed the connection,
 * or the server's request timeout cut it off): nobody is waiting for an answer, and the
 * reset of its socket says nothing about the database.
 */
function clientGone(error: Error, request: FastifyRequest): boolean {
  return request.raw.socket?.destroyed === true || (error.message === 'aborted' && (error as NodeJS.ErrnoException).code === 'ECONNRESET');
}

/** The error shape `{ error: { code, message, fields?, request_id? } }`; every error answer of the API is built here. */
export function errorBody(code: string, message: string, requestId?: string, fields?: Record<string, string>): ErrorBody {
  return { error: { code, message, ...(fields ? { fields } : {}), ...(requestId ? { request_id: requestId } : {}) } };
}

/** The one mapping from failures to HTTP statuses, every answer in the error shape of `errorBody`. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const path =
          issue.instancePath.replace(/^\//, '').replaceAll('/', '.') ||
          (issue.params?.issue as { path?: unknown[] } | undefined)?.path?.join('.') ||
          '_';
        fields[path] ??= issue.message ?? MESSAGES.generic.invalidRequest;
      }
      const first = Object.values(fields)[0] ?? MESSAGES.generic.invalidRequest;
      return reply.code(400).send(errorBody(ERROR_CODES.validation, first, undefined, fields));
    }
    if (error instanceof AppError) {
      if ('retryAfterSeconds' in error && typeof error.retryAfterSeconds === 'number')
        reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.code(error.status).send(errorBody(error.code, error.message, undefined, error.fields));
    }
    if (clientGone(error, request)) {
      request.log.info({ requestId: request.id, url: request.url, reason: error.message }, 'client closed the connection');
      return reply.code(400).send(errorBody(ERROR_CODES.badRequest, 'The request did not arrive whole.'));
    }
    // Fastify's own client errors: malformed JSON, wrong content type, body too large...
    const status = (error as FastifyError).statusCode;
    if (status && status >= 400 && status < 500) {
      return reply.code(status).send(status === 400 ? malformedRequest(error.message) : errorBody(ERROR_CODES.badRequest, error.message));
    }
    if ((error as NodeJS.ErrnoException).code === UNIQUE_VIOLATION) {
      return reply.code(409).send(errorBody(ERROR_CODES.conflict, duplicateMessage(error)));
    }
    // Two transactions that met in a cycle (deadlock) or under serializable isolation: PostgreSQL
    // rolled this one back whole, so nothing was written and the request may simply be sent again.
    if (CONCURRENT_CHANGE_CODES.has((error as NodeJS.ErrnoException).code ?? '')) {
      return reply.code(409).send(errorBody(ERROR_CODES.conflict, MESSAGES.generic.concurrentChange));
    }
    if (isDatabaseUnreachable(error)) {
      request.log.error({ err: error }, 'database unavailable');
      const unavailable = new UnavailableError();
      return reply.code(503).send(errorBody(unavailable.code, unavailable.message, request.id));
    }
    request.log.error({ err: error, requestId: request.id }, 'request failed');
    return reply.code(500).send(errorBody(ERROR_CODES.internal, MESSAGES.generic.internal, request.id));
  });

  // Node refuses some requests before Fastify sees them (headers over its 16 KB limit,
  // broken HTTP); Fastify's default answer to those lacks the error shape.
  app.server.removeAllListeners('clientError');
  app.server.on('clientError', answerClientError);
}

function answerClientError(error: NodeJS.ErrnoException, socket: Duplex) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message]: [number, string] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request headers are too large.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long to arrive.']
        : [400, 'Malformed HTTP request.'];
  const payload = JSON.stringify(errorBody(ERROR_CODES.badRequest, message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`,
    );
  }
  socket.destroy(error);
}

/** A request that could not be read (bad JSON, a URL the router refuses). */
export function malformedRequest(detail: string): ErrorBody {
  return errorBody(ERROR_CODES.badRequest, `Malformed request: ${detail}`);
}

/** JSON 404 in the error shape, for unknown /api paths. */
export function sendNotFound(reply: import('fastify').FastifyReply, method: string, url: string) {
  return reply.code(404).send(errorBody(ERROR_CODES.notFound, `No route ${method} ${url.split('?')[0]}`));
}
