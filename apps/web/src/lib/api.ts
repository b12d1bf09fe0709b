import {
  ERROR_CODES,
  authEndpoints,
  pathOf,
  queryStringOf,
  responseSchema,
  type Endpoint,
  type ErrorBody,
  type RequestOf,
  type ResponseOf,
  type Session,
} from '@console/domain';
import { sessionStore } from './session-store';
import { askStepUp, canAskStepUp } from './step-up';
import { MESSAGES } from '@/lib/wording';

/** A failed API call, in the server's one error shape: `{ error: { code, message, fields? } }`. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string>;
  /** Seconds to wait before trying again (429 Retry-After), when the server said. */
  readonly retryAfter: number | null;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    fields?: Record<string, string>;
    retryAfter?: number | null;
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.fields = init.fields ?? {};
    this.retryAfter = init.retryAfter ?? null;
  }
}

/** Status of a call that never reached the server. */
const NETWORK_ERROR_STATUS = 0;

interface RequestOptions {
  method?: Endpoint['method'];
  body?: unknown;
  /** Retry once after refreshing the session when the call answers 401. */
  refreshOn401?: boolean;
  signal?: AbortSignal;
  /** Extra request headers, e.g. Idempotency-Key. */
  headers?: Record<string, string>;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Request headers beyond the endpoint's own, e.g. `Accept`. */
  headers?: Record<string, string>;
}

async function send(path: string, options: RequestOptions, token: string | null): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    return await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    // The word "network" lets the login page classify this as a connection problem.
    throw new ApiError({
      status: NETWORK_ERROR_STATUS,
      code: 'network_error',
      message: 'Network error: the server could not be reached.',
    });
  }
}

function fallbackMessage(status: number): string {
  if (status === 401) return MESSAGES.auth.sessionExpired;
  if (status === 403) return MESSAGES.generic.forbidden;
  if (status === 404) return MESSAGES.generic.notFound;
  if (status === 429) return MESSAGES.auth.tooManyAttempts;
  if (status >= 500) return MESSAGES.generic.internal;
  return MESSAGES.generic.invalidRequest;
}

/** A structural check of the error shape (the zod schema would put zod in the first load). */
function isErrorBody(value: unknown): value is ErrorBody {
  const error = (value as Partial<ErrorBody> | null)?.error;
  return typeof error?.code === 'string' && typeof error.message === 'string';
}

async function toApiError(response: Response): Promise<ApiError> {
  const header = response.headers.get('Retry-After');
  const retryAfter = header !== null && Number.isFinite(Number(header)) ? Number(header) : null;
  const body: unknown = await response.json().catch(() => null);
  if (isErrorBody(body)) {
    const { code, message, fields } = body.error;
    return new ApiError({ status: response.status, code, message, fields, retryAfter });
  }
  return new ApiError({
    status: response.status,
    code: 'http_error',
    message: fallbackMessage(response.status),
    retryAfter,
  });
}

let pendingRefresh: Promise<Session | null> | null = null;

/**
 * Exchanges the refresh cookie for a new session. Concurrent callers share one
 * request, because the server rotates the cookie and a second refresh would race it.
 */
export function refreshSession(): Promise<Session | null> {
  pendingRefresh ??= (async () => {
    try {
      const session = await call(authEndpoints.refresh);
      sessionStore.set(session);
      return session;
    } catch (error) {
      // A 401 means the session is over: one this tab held has expired. Any other failure during
      // start-up also leaves no session to restore; later on a passing outage must not sign the user out.
      const unauthorized = error instanceof ApiError && error.status === 401;
      const { status } = sessionStore.get();
      if (unauthorized || status === 'loading') sessionStore.set(null, unauthorized && status === 'signed-in' ? 'expired' : null);
      return null;
    } finally {
      pendingRefresh = null;
    }
  })();
  return pendingRefresh;
}

type CallArgs<E extends Endpoint> =
  object extends RequestOf<E> ? [request?: RequestOf<E>, options?: CallOptions] : [request: RequestOf<E>, options?: CallOptions];

function requestOptions<E extends Endpoint>(
  endpoint: E,
  request: RequestOf<E> | undefined,
  options: CallOptions | undefined,
): [string, RequestOptions] {
  const { params, query, body, headers } = (request ?? {}) as {
    params?: Record<string, string>;
    query?: Record<string, unknown>;
    body?: unknown;
    headers?: Record<string, string | undefined>;
  };
  const sent = Object.fromEntries(
    Object.entries({ ...headers, ...options?.headers }).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return [
    pathOf(endpoint, params) + queryStringOf(query),
    {
      method: endpoint.method,
      body,
      headers: sent,
      signal: options?.signal,
      // Only a signed-in call can be saved by refreshing the session.
      refreshOn401: endpoint.auth === 'session',
    },
  ];
}

/**
 * Calls an endpoint with the session's bearer token. The answer is checked against the
 * endpoint's response schema, so what the console reads is what the contract says.
 */
export async function call<E extends Endpoint>(endpoint: E, ...[request, options]: CallArgs<E>): Promise<ResponseOf<E>> {
  const response = await authorizedResponse(...requestOptions(endpoint, request, options));
  const schema = responseSchema(endpoint, response.status);
  if (!schema) return undefined as ResponseOf<E>;
  const parsed = schema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) {
    throw new ApiError({ status: response.status, code: 'invalid_response', message: MESSAGES.generic.unexpected });
  }
  return parsed.data as ResponseOf<E>;
}

/** Downloads a file answer (a CSV export) with the session's bearer token. */
export async function download<E extends Endpoint>(
  endpoint: E,
  ...[request, options]: CallArgs<E>
): Promise<{ blob: Blob; filename: string | null }> {
  const response = await authorizedResponse(...requestOptions(endpoint, request, options));
  const disposition = response.headers.get('Content-Disposition') ?? '';
  return { blob: await response.blob(), filename: /filename="([^"]+)"/.exec(disposition)?.[1] ?? null };
}

/** Whether a 401 asks for a step-up (a fresh second factor or password), not a new session. */
async function asksStepUp(response: Response): Promise<boolean> {
  if (response.status !== 401) return false;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => null);
  return isErrorBody(body) && body.error.code === ERROR_CODES.stepUpRequired;
}

/**
 * A request refused for want of a step-up: the person is asked (one dialog), and the request is
 * sent once more. Cancelled, it fails with a clear error; nothing was changed.
 */
async function afterStepUp(path: string, options: RequestOptions, refused: Response): Promise<Response> {
  if (!canAskStepUp()) throw await toApiError(refused);
  try {
    await askStepUp();
  } catch {
    throw new ApiError({ status: 401, code: ERROR_CODES.stepUpRequired, message: MESSAGES.auth.stepUpCancelled });
  }
  const response = await send(path, options, sessionStore.accessToken());
  if (!response.ok) throw await toApiError(response);
  return response;
}

async function authorizedResponse(path: string, options: RequestOptions): Promise<Response> {
  const token = sessionStore.accessToken();
  let response = await send(path, options, token);
  // Not an expired session: the session is fine, the action wants a fresh proof.
  if (await asksStepUp(response)) return afterStepUp(path, options, response);
  if (response.status === 401 && token && options.refreshOn401 !== false) {
    // Another call may already have refreshed the session while this one was in flight.
    const current = sessionStore.accessToken();
    const next = current && current !== token ? current : (await refreshSession())?.access_token;
    if (next) response = await send(path, options, next);
    if (await asksStepUp(response)) return afterStepUp(path, options, response);
  }
  if (!response.ok) throw await toApiError(response);
  return response;
}
