import { API, API_PREFIX, type Endpoint } from '@console/domain';
import type { z } from 'zod';

/**
 * The server's side of a mocked request: the endpoint a request reaches (by method and path, as
 * the server's router matches it) and whether the server would take it (its params, query, body
 * and headers against the endpoint's schemas, as the server validates them before any handler).
 * A web test's mocked answer is only worth something for a request the server would answer.
 */

interface Route {
  endpoint: Endpoint;
  /** The full path's segments, `:name` for a parameter: `['api', 'organizations', ':id']`. */
  segments: string[];
}

const ROUTES: Route[] = Object.values(API)
  .flatMap((group) => Object.values(group) as Endpoint[])
  .map((endpoint) => ({ endpoint, segments: `${API_PREFIX}${endpoint.path}`.split('/').slice(1) }));

const isParam = (segment: string) => segment.startsWith(':');

/** The router tries a fixed segment before a parameter at the same place: `/organizations/tree` is not `/organizations/:id`. */
function byFixedFirst(a: Route, b: Route): number {
  for (let i = 0; i < a.segments.length; i++) {
    const difference = Number(isParam(a.segments[i]!)) - Number(isParam(b.segments[i]!));
    if (difference !== 0) return difference;
  }
  return 0;
}

/** The endpoint a request reaches and its path parameters, decoded as the server reads them; null when none is declared there. */
export function endpointOf(method: string, path: string): { endpoint: Endpoint; params: Record<string, string> } | null {
  const segments = path.split('/').slice(1);
  const route = ROUTES.filter(
    (candidate) =>
      candidate.endpoint.method === method &&
      candidate.segments.length === segments.length &&
      candidate.segments.every((segment, i) => isParam(segment) || segment === segments[i]),
  ).sort(byFixedFirst)[0];
  if (!route) return null;
  const params: Record<string, string> = {};
  route.segments.forEach((segment, i) => {
    if (isParam(segment)) params[segment.slice(1)] = decodeURIComponent(segments[i]!);
  });
  return { endpoint: route.endpoint, params };
}

/** One request as the fetch mock recorded it. */
export interface SentRequest {
  method: string;
  /** Without the query string. */
  path: string;
  /** With the query string, for the message. */
  target: string;
  query: Record<string, string>;
  headers: Headers;
  /** The parsed JSON body, or undefined when none was sent. */
  body: unknown;
}

function issuesOf(part: string, schema: z.ZodType | undefined, value: unknown): string[] {
  if (!schema) return [];
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map((issue) => `${[part, ...issue.path.map(String)].join('.')}: ${issue.message}`);
}

/** Why the server refuses a request before any handler runs, with the status it answers. */
export interface ContractProblem {
  status: 400 | 404;
  message: string;
}

/**
 * Why the server would refuse the request before answering it (no endpoint at that method and
 * path: 404; a part its schema refuses: 400), or null when it would take it.
 */
export function contractProblemOf(request: SentRequest): ContractProblem | null {
  const reached = endpointOf(request.method, request.path);
  if (!reached) {
    return {
      status: 404,
      message: `${request.method} ${request.target}: no endpoint of the contract (packages/domain) is declared at this method and path`,
    };
  }
  const { endpoint, params } = reached;
  const headers = Object.fromEntries(request.headers);
  const issues = [
    ...issuesOf('params', endpoint.params, params),
    ...issuesOf('query', endpoint.query, request.query),
    ...issuesOf('body', endpoint.body, request.body),
    ...issuesOf('headers', endpoint.headers, headers),
  ];
  if (issues.length === 0) return null;
  return {
    status: 400,
    message: `${request.method} ${request.target} is refused by ${endpoint.operationId} (${endpoint.method} ${endpoint.path}): ${issues.join('; ')}`,
  };
}

const problems: string[] = [];

/** Keeps a refused request's reason, for `assertNoContractProblems` to fail the test with. */
export function recordContractProblem(problem: string): void {
  problems.push(problem);
}

/**
 * Fails the test that sent a request the server would refuse (run after each test). The fetch
 * mock answers such a request as the server would, so the page goes on as in the browser; the
 * test fails here, naming the endpoint and the schema's words, whatever the page showed.
 */
export function assertNoContractProblems(): void {
  if (problems.length === 0) return;
  const found = problems.splice(0);
  throw new Error(`The console sent ${found.length} request(s) the server would refuse:\n- ${[...new Set(found)].join('\n- ')}`);
}
