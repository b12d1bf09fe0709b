import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERROR_CODES, MESSAGES, type ErrorBody } from '@console/domain';
import { AppError, UnavailableError } from './errors.ts';

/** PostgreSQL errors that mean "the database is not reachable right now". */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P03', '08000', '08003', '08006']);

function body(code: string, message: string, requestId?: string, fields?: Record<string, string>): ErrorBody {
  return { error: { code, message, ...(fields ? { fields } : {}), ...(requestId ? { request_id: requestId } : {}) } };
}

/** The one mapping from failures to HTTP, with the error shape of DESIGN.md section 3. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || (issue.params?.issue as { path?: unknown[] } | undefined)?.path?.join('.') || '_';
        fields[path] ??= issue.message ?? MESSAGES.generic.invalidRequest;
      }
      const first = Object.values(fields)[0] ?? MESSAGES.generic.invalidRequest;
      return reply.code(400).send(body(ERROR_CODES.validation, first, undefined, fields));
    }
    if (error instanceof AppError) {
      return reply.code(error.status).send(body(error.code, error.message, undefined, error.fields));
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code && UNAVAILABLE_CODES.has(code)) {
      request.log.error({ err: error }, 'database unavailable');
      const unavailable = new UnavailableError();
      return reply.code(503).send(body(unavailable.code, unavailable.message, request.id));
    }
    // Fastify's own client errors: malformed JSON, wrong content type, body too large...
    const status = (error as FastifyError).statusCode;
    if (status && status >= 400 && status < 500) {
      const message = status === 400 ? `Malformed request: ${error.message}` : error.message;
      return reply.code(status).send(body(ERROR_CODES.badRequest, message));
    }
    request.log.error({ err: error, requestId: request.id }, 'request failed');
    return reply.code(500).send(body(ERROR_CODES.internal, MESSAGES.generic.internal, request.id));
  });

}

/** JSON 404 in the error shape, for unknown /api paths. */
export function sendNotFound(reply: import('fastify').FastifyReply, method: string, url: string) {
  return reply.code(404).send(body(ERROR_CODES.notFound, `No route ${method} ${url.split('?')[0]}`));
}
