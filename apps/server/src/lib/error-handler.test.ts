import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isDatabaseUnreachable, registerErrorHandling } from './error-handler.ts';
import { MESSAGES } from '@console/domain';
import { ConflictError, RuleError } from './errors.ts';

const coded = (message: string, code: string) => Object.assign(new Error(message), { code });

/** Every shape in which Node, pg, pg-pool and PostgreSQL report an unreachable database. */
const UNREACHABLE: Record<string, () => Error> = {
  'connection refused': () => coded('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
  'connection reset': () => coded('read ECONNRESET', 'ECONNRESET'),
  'written to a closed socket': () => coded('write EPIPE', 'EPIPE'),
  'host name not resolved': () => coded('getaddrinfo ENOTFOUND db.internal', 'ENOTFOUND'),
  'every address refused': () => new AggregateError([coded('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], 'connect failed'),
  'waiting for a pool slot too long': () => new Error('timeout exceeded when trying to connect'),
  'no connection within the timeout': () =>
    new Error('Connection terminated due to connection timeout', { cause: new Error('timeout expired') }),
  'connection lost under a query': () => new Error('Connection terminated unexpectedly'),
  'client ended with queries queued': () => new Error('Connection terminated'),
  'query on a broken client': () => new Error('Client has encountered a connection error and is not queryable'),
  'PostgreSQL shutting down (57P01)': () => coded('terminating connection due to administrator command', '57P01'),
  'PostgreSQL starting up (57P03)': () => coded('the database system is starting up', '57P03'),
  'connection failure (08006)': () => coded('connection failure', '08006'),
  'too many connections (53300)': () => coded('sorry, too many clients already', '53300'),
  'a write on a standby (25006)': () => coded('cannot execute INSERT in a read-only transaction', '25006'),
  'a cause that is one of these': () => new Error('query failed', { cause: coded('read ECONNRESET', 'ECONNRESET') }),
};

let app: FastifyInstance;
const logged: unknown[] = [];

beforeAll(async () => {
  app = Fastify({
    logger: { level: 'error', stream: { write: (line: string) => logged.push(JSON.parse(line)) } },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  app.get('/boom', async () => {
    throw new Error('secret internals at /srv/app.ts:12');
  });
  app.get('/conflict', async () => {
    throw new ConflictError('Already there');
  });
  app.get('/rule', async () => {
    throw new RuleError('Not allowed by the rules');
  });
  app.get<{ Params: { code: string } }>('/concurrent/:code', async (request) => {
    throw coded('deadlock detected', request.params.code);
  });
  app.get<{ Params: { constraint: string } }>('/duplicate/:constraint', async (request) => {
    throw Object.assign(coded('duplicate key value violates unique constraint', '23505'), { constraint: request.params.constraint });
  });
  app.get('/client-aborted', async () => {
    // What Fastify passes on when the client's connection breaks while its body is read.
    throw Object.assign(coded('aborted', 'ECONNRESET'), { statusCode: 400 });
  });
  app.get('/db-down', async () => {
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  });
  app.get<{ Params: { shape: string } }>('/unreachable/:shape', async (request) => {
    throw UNREACHABLE[request.params.shape]!();
  });
  app.post(
    '/typed',
    { schema: { body: z.object({ n: z.number().int(), nested: z.object({ s: z.string().min(2, 'too short') }) }) } },
    async () => ({ ok: true }),
  );
  app.get('/bad-response', { schema: { response: { 200: z.object({ n: z.number() }) } } }, async () => ({ n: 'not a number' }) as never);
  await app.ready();
});
afterAll(async () => {
  await app.close();
});

describe('the error mapping', () => {
  it('hides unexpected failures behind a 500 with a request id, and logs them with it', async () => {
    const response = await app.inject({ method: 'GET', url: '/boom' });
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(body).toEqual({ error: { code: 'internal_error', message: expect.any(String), request_id: expect.any(String) } });
    expect(response.body).not.toContain('secret internals');
    expect(JSON.stringify(logged)).toContain(body.error.request_id);
    expect(JSON.stringify(logged)).toContain('secret internals');
  });

  it('maps typed errors to their status', async () => {
    expect((await app.inject({ method: 'GET', url: '/conflict' })).json()).toEqual({
      error: { code: 'conflict', message: 'Already there' },
    });
    expect((await app.inject({ method: 'GET', url: '/conflict' })).statusCode).toBe(409);
    expect((await app.inject({ method: 'GET', url: '/rule' })).statusCode).toBe(422);
  });

  it('answers 503 when the database is unreachable', async () => {
    const response = await app.inject({ method: 'GET', url: '/db-down' });
    expect(response.statusCode).toBe(503);
    expect(response.json().error.code).toBe('unavailable');
  });

  it('names each invalid field by its path', async () => {
    const response = await app.inject({ method: 'POST', url: '/typed', payload: { n: 1.5, nested: { s: 'x' } } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toMatchObject({ n: expect.any(String), 'nested.s': 'too short' });
  });

  it('answers 415 for a body that is not JSON, 400 for broken JSON', async () => {
    const text = await app.inject({ method: 'POST', url: '/typed', payload: 'n=1', headers: { 'content-type': 'application/xml' } });
    expect(text.statusCode).toBe(415);
    expect(text.json().error.code).toBe('bad_request');
    const broken = await app.inject({ method: 'POST', url: '/typed', payload: '{"n":', headers: { 'content-type': 'application/json' } });
    expect(broken.statusCode).toBe(400);
  });

  it('treats a response that breaks its own schema as a server fault', async () => {
    const response = await app.inject({ method: 'GET', url: '/bad-response' });
    expect(response.statusCode).toBe(500);
  });
});

describe('an unreachable database', () => {
  it.each(Object.keys(UNREACHABLE))('answers 503 in the error shape: %s', async (shape) => {
    const response = await app.inject({ method: 'GET', url: `/unreachable/${encodeURIComponent(shape)}` });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ error: { code: 'unavailable', message: expect.any(String), request_id: expect.any(String) } });
  });

  it('leaves other database failures and look-alike messages to the 500', () => {
    expect(isDatabaseUnreachable(coded('duplicate key value violates unique constraint', '23505'))).toBe(false);
    expect(isDatabaseUnreachable(coded('canceling statement due to statement timeout', '57014'))).toBe(false);
    expect(isDatabaseUnreachable(new Error('Connection terminated by the mail server'))).toBe(false);
    expect(isDatabaseUnreachable('ECONNREFUSED')).toBe(false);
  });
});

describe('concurrent changes', () => {
  it.each(['40P01', '40001'])('answers %s (rolled back whole) with 409 and a message to try again', async (code) => {
    const response = await app.inject({ method: 'GET', url: `/concurrent/${code}` });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: { code: 'conflict', message: expect.stringContaining('Please try again') } });
  });
});

describe('unique values saved by two requests at once', () => {
  it.each([
    ['users_email_lower_idx', MESSAGES.invitations.accountExists],
    ['invitations_pending_email_idx', MESSAGES.invitations.alreadyPending],
    ['some_other_unique_idx', MESSAGES.generic.duplicate],
  ])('a unique violation (23505) of %s is 409 with its message, not logged as a failure', async (constraint, message) => {
    const before = logged.length;
    const response = await app.inject({ method: 'GET', url: `/duplicate/${constraint}` });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: { code: 'conflict', message } });
    expect(logged.length).toBe(before);
  });
});

describe('a client that went away', () => {
  it('a body cut off by the client is a client error, never "database unavailable"', async () => {
    const before = logged.length;
    const response = await app.inject({ method: 'GET', url: '/client-aborted' });
    expect(response.statusCode).toBe(400);
    expect(logged.slice(before)).toEqual([]);
  });
});
