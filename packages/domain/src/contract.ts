import type { z } from 'zod';
import type { Permission } from './permissions.ts';
import type { ApiScope } from './schemas/api-keys.ts';

/**
 * An endpoint declared once: the server registers its route from it (validation,
 * serialization, OpenAPI) and the console calls it through one typed client, so no
 * request or response type is written twice.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Every API path lives under this prefix. */
export const API_PREFIX = '/api';

/**
 * The error statuses an answer may carry, each with the one error shape
 * `{ error: { code, message, fields? } }`.
 */
export const ERROR_STATUSES = [400, 401, 403, 404, 409, 410, 413, 422, 429, 503] as const;
export type ErrorStatus = (typeof ERROR_STATUSES)[number];

export interface Endpoint {
  /** The operation's stable name in the API document and in generated clients: `listOrganizations`. */
  operationId: string;
  method: HttpMethod;
  /** Under `/api`, with `:name` parameters: `/organizations/:id`. */
  path: string;
  summary: string;
  tags: readonly string[];
  /**
   * `session`: a signed-in person (bearer access token), refused with 401 otherwise.
   * `key`: an agent runtime's API key (bearer `oc_...`), the machine routes under `/v1`
   * only; a session token is refused there, as a key is on every other route.
   * `public`: anyone; such a route may still read a bearer when one comes.
   */
  auth: 'session' | 'key' | 'public';
  /** The permission a caller must hold before anything else is looked at (403 otherwise). */
  permission?: Permission;
  /**
   * Step-up (session routes that move money or secrets): the caller must have proved a second
   * factor, or their password when they have none, within `MFA.stepUpFreshSeconds`, else 401
   * `step_up_required` and nothing changes. `always`: every call asks; `conditional`: the
   * handler asks when its rule says so (an allocation above the house's threshold, a policy
   * turned off). A machine key is never asked.
   */
  stepUp?: 'always' | 'conditional';
  /** The scope an API key must carry (key routes; 403 otherwise). */
  scope?: ApiScope;
  /** A larger body limit than the server's default, in bytes (usage batches). */
  bodyLimit?: number;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  headers?: z.ZodType;
  /** Answers by status; `null` for an answer without a JSON body (204, or a file). */
  responses: { readonly [status: number]: z.ZodType | null };
  /** The media type of a non-JSON answer, e.g. `text/csv`. */
  produces?: string;
  /**
   * The error statuses the endpoint's own rules answer besides those its declaration
   * implies (see `errorStatusesOf`): 409 conflict, 410 gone, 422 rule broken, 429 rate
   * limited, 401 or 403 from a public or read route, 404 for an organization named in the query.
   */
  errors?: readonly ErrorStatus[];
}

/** Declares an endpoint, keeping its literal types for both sides. */
export const endpoint = <const E extends Endpoint>(definition: E): E => definition;

type Of<S> = S extends z.ZodType ? S : never;
type SuccessKey<E extends Endpoint> = Extract<keyof E['responses'], 200 | 201 | 202>;

/** The parsed body of the endpoint's success answer (`void` when it has none). */
export type ResponseOf<E extends Endpoint> = [SuccessKey<E>] extends [never]
  ? void
  : E['responses'][SuccessKey<E>] extends z.ZodType
    ? z.output<Of<E['responses'][SuccessKey<E>]>>
    : void;

/** What a handler returns for the success answer (before serialization). */
export type ReplyOf<E extends Endpoint> = [SuccessKey<E>] extends [never]
  ? void
  : E['responses'][SuccessKey<E>] extends z.ZodType
    ? z.input<Of<E['responses'][SuccessKey<E>]>>
    : void;

/** What a client sends: `params`, `query`, `body` and `headers`, each only where declared. */
export type RequestOf<E extends Endpoint> = (E['params'] extends z.ZodType ? { params: z.input<E['params']> } : { params?: never }) &
  (E['query'] extends z.ZodType ? { query?: z.input<E['query']> } : { query?: never }) &
  (E['body'] extends z.ZodType ? { body: z.input<E['body']> } : { body?: never }) &
  (E['headers'] extends z.ZodType ? { headers?: z.input<E['headers']> } : { headers?: never });

/** The same parts after validation, as the server's handler receives them. */
export interface ValidatedOf<E extends Endpoint> {
  params: E['params'] extends z.ZodType ? z.output<E['params']> : unknown;
  query: E['query'] extends z.ZodType ? z.output<E['query']> : unknown;
  body: E['body'] extends z.ZodType ? z.output<E['body']> : unknown;
  headers: E['headers'] extends z.ZodType ? z.output<E['headers']> : unknown;
}

/** The success schema of an endpoint for a status, or null when that answer has no JSON body. */
export function responseSchema(endpoint: Endpoint, status: number): z.ZodType | null {
  return endpoint.responses[status] ?? null;
}

/**
 * Every error status an endpoint may answer: its declared `errors`, and what its
 * declaration implies. Any input (params, query, body, headers) may be invalid, and any
 * body but a GET's may be malformed JSON: 400; such a body may be too large: 413. A
 * session or key route refuses a missing or bad bearer: 401.
 * A permission or a scope, every key route (a frozen organization's key) and every session
 * route that changes something (a frozen organization's people) may refuse: 403. A path
 * parameter names something that may be absent or outside the caller's scope: 404. Every
 * route answers 503 while the database is unreachable or the server stops. A status the
 * endpoint declares with its own body (health's 503) is not an error answer.
 */
export function errorStatusesOf(endpoint: Endpoint): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>(endpoint.errors ?? []);
  const takesBody = endpoint.method !== 'GET';
  if (endpoint.params || endpoint.query || endpoint.body || endpoint.headers || takesBody) statuses.add(400);
  if (takesBody) statuses.add(413);
  if (endpoint.auth !== 'public') statuses.add(401);
  if (endpoint.permission || endpoint.scope || endpoint.auth === 'key' || (endpoint.auth === 'session' && endpoint.method !== 'GET'))
    statuses.add(403);
  if (endpoint.params) statuses.add(404);
  // The machine API is rate limited per key, per organization subtree and per client address;
  // a session's changes per person.
  if (endpoint.auth === 'key' || (endpoint.auth === 'session' && takesBody)) statuses.add(429);
  statuses.add(503);
  return ERROR_STATUSES.filter((status) => statuses.has(status) && !(status in endpoint.responses));
}

/** `/organizations/:id` with `{ id }` gives `/api/organizations/<id>`, each value encoded. */
export function pathOf(endpoint: Pick<Endpoint, 'path'>, params: Record<string, string | number> = {}): string {
  const path = endpoint.path.replace(/:([A-Za-z_]\w*)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter "${name}" for ${endpoint.path}`);
    return encodeURIComponent(String(value));
  });
  return `${API_PREFIX}${path}`;
}

/** A query string in the order of the object's keys; undefined, null and empty values are left out. */
export function queryStringOf(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
