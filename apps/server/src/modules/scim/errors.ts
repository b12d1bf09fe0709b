import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodError, ZodType } from 'zod';
import { MESSAGES, SCIM_CONTENT_TYPE, SCIM_SCHEMA, type ScimErrorType } from '@console/domain';
import { isDatabaseUnreachable } from '../../lib/error-handler.ts';
import { AppError } from '../../lib/errors.ts';

const m = MESSAGES.identity;

/** A refusal in SCIM's own shape: the status, and for a 400 or a 409 `uniqueness` its `scimType`. */
export class ScimError extends Error {
  readonly status: number;
  readonly scimType: ScimErrorType | undefined;

  constructor(status: number, detail: string, scimType?: ScimErrorType) {
    super(detail);
    this.status = status;
    this.scimType = scimType;
  }
}

export const scimErrorBody = (status: number, detail: string, scimType?: ScimErrorType) => ({
  schemas: [SCIM_SCHEMA.error],
  status: String(status),
  ...(scimType && { scimType }),
  detail,
});

/** A body that does not fit its schema: the first problem, named by its path. Not an object at all is `invalidSyntax`. */
export function parseBody<T extends ZodType>(schema: T, body: unknown): ReturnType<T['parse']> {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new ScimError(400, 'The body must be a JSON object.', 'invalidSyntax');
  const result = schema.safeParse(body);
  if (!result.success) throw invalidBody(result.error);
  return result.data as ReturnType<T['parse']>;
}

function invalidBody(error: ZodError): ScimError {
  const issue = error.issues[0]!;
  const path = issue.path.map(String).join('.');
  // The message's structure (its operations, its schemas) is `invalidSyntax`; an attribute's value `invalidValue`.
  const syntax = path.startsWith('Operations') || path.startsWith('schemas');
  return new ScimError(400, `${path || 'body'}: ${issue.message}`, syntax ? 'invalidSyntax' : 'invalidValue');
}

const UNIQUE_VIOLATION = '23505';
const CONCURRENT_CHANGE_CODES = new Set(['40P01', '40001']);

/** Any failure as SCIM answers it; a caller's mistake is never a 500. */
export function scimFailure(
  error: FastifyError | Error,
  request: FastifyRequest,
): { status: number; detail: string; scimType?: ScimErrorType } {
  if (error instanceof ScimError) return { status: error.status, detail: error.message, scimType: error.scimType };
  if (error instanceof AppError) return { status: error.status, detail: error.message };
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return { status: 415, detail: m.scimContentType };
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return { status: 413, detail: error.message };
  const status = (error as FastifyError).statusCode;
  if (status && status >= 400 && status < 500)
    return { status: 400, detail: status === 400 ? m.scimMalformed : error.message, scimType: 'invalidSyntax' };
  if (code === UNIQUE_VIOLATION) return { status: 409, detail: MESSAGES.generic.duplicate, scimType: 'uniqueness' };
  if (CONCURRENT_CHANGE_CODES.has(code ?? '')) return { status: 409, detail: MESSAGES.generic.concurrentChange };
  if (isDatabaseUnreachable(error)) {
    request.log.error({ err: error }, 'database unavailable');
    return { status: 503, detail: 'The service is temporarily unavailable. Please try again shortly.' };
  }
  request.log.error({ err: error, requestId: request.id }, 'SCIM request failed');
  return { status: 500, detail: MESSAGES.generic.internal };
}

/** The SCIM door's error handler: every refusal in the SCIM error shape, with Retry-After on a 429. */
export function sendScimFailure(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  const failure = scimFailure(error, request);
  if ('retryAfterSeconds' in error && typeof error.retryAfterSeconds === 'number')
    reply.header('retry-after', String(error.retryAfterSeconds));
  request.scimOutcome ??= `${failure.status} ${failure.scimType ?? failure.detail}`;
  return reply
    .code(failure.status)
    .type(`${SCIM_CONTENT_TYPE}; charset=utf-8`)
    .send(scimErrorBody(failure.status, failure.detail, failure.scimType));
}
