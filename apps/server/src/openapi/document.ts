import { STATUS_CODES } from 'node:http';
import type { SwaggerTransformObject } from '@fastify/swagger';
import { z } from 'zod';
import {
  API,
  ERROR_CODES,
  WEBHOOK_EVENT_DATA,
  WEBHOOKS,
  webhookPayloadSchema,
  MESSAGES,
  errorBodySchema,
  errorStatusesOf,
  type Endpoint,
  type ErrorBody,
  type ErrorStatus,
} from '@console/domain';
import { UnavailableError } from '../lib/errors.ts';
import { CONSOLE_VERSION } from '../lib/version.ts';
import { MACHINE_DESCRIPTION, MACHINE_EXAMPLES } from './machine.ts';

/**
 * The API document beyond what each route's schema gives: the servers, the security
 * schemes and which operation takes which, every error answer with the one error shape,
 * the tags with their descriptions, and the machine API's examples. Everything here is
 * derived from the endpoint contract, found by each operation's operationId.
 */

type Json = Record<string, any>;

const endpoints = new Map<string, Endpoint>(
  Object.values(API)
    .flatMap((group) => Object.values(group) as Endpoint[])
    .map((endpoint) => [endpoint.operationId, endpoint]),
);

/** The security scheme of each kind of authenticated route. */
const SCHEME_OF = { session: 'session', key: 'apiKey' } as const;

const SECURITY_SCHEMES = {
  [SCHEME_OF.session]: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'The access token of a signed-in person, from `POST /api/auth/sign-in` or `POST /api/auth/refresh`. Every route but the machine API.',
  },
  [SCHEME_OF.key]: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'API key (oc_...)',
    description: "An agent runtime's API key (`oc_...`), made by its organization's admins. The machine API under `/api/v1` only.",
  },
};

const TAGS: { name: string; description: string }[] = [
  { name: 'ops', description: 'Liveness and the database state.' },
  {
    name: 'auth',
    description:
      'Sessions: sign in (with a second factor when the person has an authenticator app), refresh (a rotated httpOnly cookie), sign out, password reset and change.',
  },
  {
    name: 'account',
    description:
      "The signed-in person's own account: an authenticator app as a second factor (set up with the password, confirmed with a first code), recovery codes shown once, and their sessions (device, address, last activity) to end one by one or all but the current one.",
  },
  {
    name: 'users',
    description:
      'People of the organizations in scope: read in the whole subtree, managed in the own organization and its direct children.',
  },
  { name: 'invitations', description: 'Invitations into an organization: created, mailed, resent, revoked, accepted by the invitee.' },
  { name: 'organizations', description: 'The hierarchy of organizations: lists, the tree, create, edit, soft delete.' },
  { name: 'billing', description: "An organization's activated agent limit, its capacity and its low-balance threshold." },
  { name: 'credits', description: 'Credit allocations down the tree, house adjustments, usage imports and the ledger.' },
  { name: 'activity', description: "The audit events of the caller's organization and its subtree: who did what, when, from where." },
  { name: 'dashboard', description: 'Every dashboard figure of an organization.' },
  { name: 'debug', description: 'What a development install shows its house admins.' },
  {
    name: 'settings',
    description: 'The global settings: documentation, billing portal and community links, read by everyone and kept by house admins.',
  },
  { name: 'agents', description: 'The agent catalog, activations per organization and their usage.' },
  { name: 'api-keys', description: "An organization's API keys for its agent runtimes." },
  { name: 'machine', description: MACHINE_DESCRIPTION },
  {
    name: 'webhooks',
    description:
      "An organization's webhook endpoints and their delivery logs. The events themselves are under `x-webhooks`: each is a POST of JSON to the endpoint's URL, " +
      'signed as Standard Webhooks says (`webhook-id`, the event id, the same on every attempt; `webhook-timestamp`, seconds; `webhook-signature`, `v1,<base64 HMAC-SHA256 of id.timestamp.body>` under the `whsec_` secret, ' +
      `one per secret during a rotation's grace period). A 2xx answer within ${WEBHOOKS.timeoutMs / 1000} s delivers; anything else (redirects included, which are not followed) is retried with back-off for about three days. ` +
      'Delivery is at least once: deduplicate by `webhook-id`. Order is not promised. An endpoint answering 410 Gone, or failing for 72 hours, is disabled and its admins mailed.',
  },
];

/** The `x-webhooks` section (OpenAPI 3.0's extension for 3.1's `webhooks`): what each event POSTs to an endpoint. */
function webhookOperations(): Json {
  const headers = ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => ({
    name,
    in: 'header',
    required: true,
    schema: { type: 'string' },
  }));
  return Object.fromEntries(
    Object.keys(WEBHOOK_EVENT_DATA).map((type) => {
      const schema = z.toJSONSchema(webhookPayloadSchema(type as keyof typeof WEBHOOK_EVENT_DATA), { target: 'openapi-3.0' }) as Json;
      delete schema.$schema;
      return [
        type,
        {
          post: {
            operationId: `webhook_${type.replace(/\./g, '_')}`,
            summary: `The ${type} event`,
            tags: ['webhooks'],
            parameters: headers,
            // Sent by the server: the receiver authenticates it by its signature.
            security: [],
            requestBody: { required: true, content: { 'application/json': { schema } } },
            responses: { '200': { description: 'Any 2xx answer delivers the event; anything else is retried.' } },
          },
        },
      ];
    }),
  );
}

/** The error answers by status: name, meaning and an example body. */
const ERRORS: Record<ErrorStatus, { name: string; description: string; example: ErrorBody; retryAfter?: true }> = {
  400: {
    name: 'BadRequest',
    description: 'Malformed or invalid: `fields` names each invalid field by its path (`events.0.units`).',
    example: { error: { code: ERROR_CODES.validation, message: 'Invalid UUID', fields: { organization_id: 'Invalid UUID' } } },
  },
  401: {
    name: 'Unauthorized',
    description:
      'No bearer, or one that is not valid here: expired, revoked, or of the other kind (a session on the machine API, an API key elsewhere).',
    example: { error: { code: ERROR_CODES.unauthorized, message: MESSAGES.auth.userNotAuthenticated } },
  },
  403: {
    name: 'Forbidden',
    description: 'Not allowed: a missing permission or scope, or an organization (or one above it) that is suspended or inactive.',
    example: { error: { code: ERROR_CODES.forbidden, message: MESSAGES.generic.forbidden } },
  },
  404: {
    name: 'NotFound',
    description: "Absent, or outside the caller's scope: the two are never told apart.",
    example: { error: { code: ERROR_CODES.notFound, message: MESSAGES.generic.notFound } },
  },
  409: {
    name: 'Conflict',
    description: 'In conflict with the current state (a duplicate, an Idempotency-Key reused for another request, a concurrent change).',
    example: { error: { code: ERROR_CODES.conflict, message: MESSAGES.generic.concurrentChange } },
  },
  410: {
    name: 'Gone',
    description: 'The invitation was used, revoked, or has expired.',
    example: { error: { code: 'invitation_expired', message: MESSAGES.invitations.expired } },
  },
  413: {
    name: 'PayloadTooLarge',
    description: "The body is over the route's size limit, or a batch over its number of items.",
    example: { error: { code: ERROR_CODES.badRequest, message: 'Request body is too large' } },
  },
  422: {
    name: 'UnprocessableEntity',
    description: 'A rule of the domain is broken; `code` names the rule.',
    example: { error: { code: ERROR_CODES.rule, message: MESSAGES.organizations.deleteHasChildren } },
  },
  429: {
    name: 'TooManyRequests',
    description: 'Too many requests: try again after `Retry-After` seconds.',
    example: { error: { code: ERROR_CODES.rateLimited, message: MESSAGES.auth.tooManyAttempts } },
    retryAfter: true,
  },
  503: {
    name: 'ServiceUnavailable',
    description: 'The database is unreachable or the server is stopping: try again shortly.',
    example: { error: { code: ERROR_CODES.unavailable, message: new UnavailableError().message } },
  },
};

const ERROR_SCHEMA = 'Error';

const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } } };

/** The machine API's rate-limit headers, as the IETF draft (httpapi-ratelimit-headers) writes them. */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': {
    description:
      'Each limit this request counts against: `"key"` (the API key), then `"super_agency"`, `"agency"` and `"tenant"` (the subtree of each organization from the house\'s child down to the key\'s own), with `q` requests per `w` seconds. Example: `"key";q=1200;w=60, "agency";q=20000;w=60`.',
    schema: { type: 'string' },
  },
  RateLimit: {
    description:
      'What is left of each limit in the current window: `r` requests, for `t` more seconds. Example: `"key";r=1187;t=42, "agency";r=19870;t=42`.',
    schema: { type: 'string' },
  },
};

/** The machine API's 429: also the limits and what is left of each. */
const MACHINE_TOO_MANY = 'MachineTooManyRequests';

function errorComponents(): { schemas: Json; responses: Json } {
  const schema = z.toJSONSchema(errorBodySchema, { target: 'openapi-3.0' }) as Json;
  delete schema.$schema;
  const responses = Object.fromEntries(
    Object.values(ERRORS).map(({ name, description, example, retryAfter }) => [
      name,
      {
        description,
        ...(retryAfter && { headers: RETRY_AFTER }),
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_SCHEMA}` }, example } },
      },
    ]),
  );
  responses[MACHINE_TOO_MANY] = {
    description:
      'Over a rate limit of the machine API: the key, an organization subtree it belongs to, or (for keys that are not valid) the client address. Nothing was done; try again after `Retry-After` seconds.',
    headers: { ...RETRY_AFTER, ...RATE_LIMIT_HEADERS },
    content: {
      'application/json': {
        schema: { $ref: `#/components/schemas/${ERROR_SCHEMA}` },
        example: { error: { code: ERROR_CODES.rateLimited, message: MESSAGES.usage.rateLimited('key', 1200, 42) } },
      },
    },
  };
  return { schemas: { [ERROR_SCHEMA]: schema }, responses };
}

/**
 * OpenAPI 3.0 reads `nullable` only beside a `type`; zod's union with null gives it beside
 * `anyOf` or `oneOf` instead. The null is moved into the branches (the first one of a
 * `oneOf`, so that null still matches exactly one), and a nullable enum lists null.
 */
function fixNullable(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(fixNullable);
  if (node === null || typeof node !== 'object') return;
  const schema = node as Json;
  if (schema.nullable === true && schema.type === undefined && (schema.anyOf || schema.oneOf)) {
    const branches: Json[] = schema.anyOf ?? schema.oneOf;
    for (const branch of schema.anyOf ? branches : branches.slice(0, 1)) branch.nullable = true;
    delete schema.nullable;
  }
  // A nullable enum admits null only when the enum lists it.
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum.push(null);
  Object.values(schema).forEach(fixNullable);
}

/** The success answers without a JSON body: 204, or a file of the endpoint's media type. */
function bodilessResponses(endpoint: Endpoint, responses: Json): void {
  const bodiless = Object.entries(endpoint.responses).filter(([, schema]) => schema === null);
  if (bodiless.length === 0) return;
  // Fastify documents a route without response schemas as one 200 "Default Response".
  if (!(200 in endpoint.responses)) delete responses[200];
  for (const [status] of bodiless) {
    responses[status] = {
      description: STATUS_CODES[Number(status)],
      ...(endpoint.produces && { content: { [endpoint.produces]: { schema: { type: 'string' } } } }),
    };
  }
}

function describeOperation(method: string, path: string, operation: Json): void {
  const endpoint = endpoints.get(operation.operationId);
  if (!endpoint) throw new Error(`${method.toUpperCase()} ${path} has no endpoint in the contract`);
  operation.security = endpoint.auth === 'public' ? [] : [{ [SCHEME_OF[endpoint.auth]]: [] }];
  const responses: Json = operation.responses;
  bodilessResponses(endpoint, responses);
  for (const [status, response] of Object.entries(responses)) {
    if (response.description === 'Default Response') response.description = STATUS_CODES[Number(status)];
  }
  for (const status of errorStatusesOf(endpoint)) responses[status] = { $ref: `#/components/responses/${ERRORS[status].name}` };
  if (endpoint.auth === 'key') {
    responses[429] = { $ref: `#/components/responses/${MACHINE_TOO_MANY}` };
    for (const [status, response] of Object.entries(responses)) if (status.startsWith('2')) response.headers = RATE_LIMIT_HEADERS;
  }

  const examples = MACHINE_EXAMPLES[endpoint.operationId];
  if (examples?.request) operation.requestBody.content['application/json'].example = examples.request;
  if (examples) {
    const success = Object.keys(endpoint.responses).find((status) => status.startsWith('2'))!;
    responses[success].content['application/json'].examples = examples.responses;
  }
}

/**
 * The swagger plugin's `openapi` option: the document's frame. Paths come from the routes;
 * `completeDocument` fills in the rest.
 */
export function openApiFrame(appUrl: string) {
  return {
    openapi: '3.0.3',
    info: {
      title: 'Organization Console API',
      version: CONSOLE_VERSION,
      description:
        'The API of the organization console: every route of the console under `/api`, and the machine API for agent runtimes under `/api/v1` (tag `machine`). Errors always have one shape, `{ "error": { "code", "message", "fields"? } }`.',
    },
    servers: [{ url: appUrl, description: 'This installation (APP_URL)' }],
  };
}

/** The swagger plugin's `transformObject`: the frame and the routes' paths made a complete document. */
export const completeDocument: SwaggerTransformObject = (input) => {
  if (!('openapiObject' in input)) throw new Error('The API document is OpenAPI 3');
  const document: Json = structuredClone(input.openapiObject);
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const [method, operation] of Object.entries(item as Json)) describeOperation(method, path, operation);
  }
  const errors = errorComponents();
  document.components = {
    ...document.components,
    securitySchemes: SECURITY_SCHEMES,
    schemas: { ...document.components?.schemas, ...errors.schemas },
    responses: errors.responses,
  };
  document.tags = TAGS;
  document['x-webhooks'] = webhookOperations();
  fixNullable(document);
  return document;
};

/** Every `#/components/<kind>/<name>` that a part of a document refers to, directly or through another. */
function referencedComponents(document: Json, start: unknown): Set<string> {
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    const ref = (node as Json).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/') && !found.has(ref)) {
      found.add(ref);
      const [kind, name] = ref.slice('#/components/'.length).split('/');
      visit(document.components?.[kind!]?.[name!]);
    }
    Object.values(node).forEach(visit);
  };
  visit(start);
  return found;
}

/**
 * The machine API alone, for an agent runtime team: its paths, the API key scheme, the
 * components they use and its tag, from the whole document.
 */
export function machineDocument(document: Json): Json {
  const tag = TAGS.find((t) => t.name === 'machine')!;
  const paths = Object.fromEntries(
    Object.entries(document.paths as Json).filter(([, item]) =>
      Object.values(item as Json).every((operation: Json) => operation.tags?.includes(tag.name)),
    ),
  );
  const used = referencedComponents(document, paths);
  const components: Json = { securitySchemes: { [SCHEME_OF.key]: SECURITY_SCHEMES[SCHEME_OF.key] } };
  for (const ref of used) {
    const [kind, name] = ref.slice('#/components/'.length).split('/') as [string, string];
    (components[kind] ??= {})[name] = document.components[kind][name];
  }
  return {
    openapi: document.openapi,
    info: { ...document.info, title: `${document.info.title}: machine API`, description: tag.description },
    servers: document.servers,
    paths,
    components,
    tags: [tag],
  };
}
