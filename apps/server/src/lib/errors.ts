import { ERROR_CODES, MESSAGES } from '@console/domain';

/** Every failure a service reports; the one error handler maps these to HTTP. */
export class AppError extends Error {
  // Declared fields, not parameter properties: Node runs this file with its own type stripping.
  readonly status: number;
  readonly code: string;
  readonly fields?: Record<string, string>;

  constructor(status: number, code: string, message: string, fields?: Record<string, string>) {
    super(message);
    this.status = status;
    this.code = code;
    if (fields !== undefined) this.fields = fields;
  }
}

export class BadRequestError extends AppError {
  constructor(message: string = MESSAGES.generic.invalidRequest, fields?: Record<string, string>) {
    super(400, ERROR_CODES.validation, message, fields);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message: string = MESSAGES.auth.userNotAuthenticated, code: string = ERROR_CODES.unauthorized) {
    super(401, code, message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message: string = MESSAGES.generic.forbidden) {
    super(403, ERROR_CODES.forbidden, message);
  }
}

/** Absent, or outside the caller's scope: the two are never told apart. */
export class NotFoundError extends AppError {
  constructor(message: string = MESSAGES.generic.notFound) {
    super(404, ERROR_CODES.notFound, message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, ERROR_CODES.conflict, message);
  }
}

export class RuleError extends AppError {
  constructor(message: string, code: string = ERROR_CODES.rule) {
    super(422, code, message);
  }
}

export class RateLimitedError extends AppError {
  readonly retryAfterSeconds: number;

  constructor(retryAfterSeconds: number, message: string = MESSAGES.auth.tooManyAttempts) {
    super(429, ERROR_CODES.rateLimited, message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Too many of one costly kind of request are under way (exports): try again after a few seconds. */
export class BusyError extends AppError {
  readonly retryAfterSeconds: number;

  constructor(retryAfterSeconds: number, message: string = MESSAGES.generic.busy) {
    super(429, ERROR_CODES.rateLimited, message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export class UnavailableError extends AppError {
  constructor(message = 'The service is temporarily unavailable. Please try again shortly.') {
    super(503, ERROR_CODES.unavailable, message);
  }
}
