import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { registerErrorHandling } from './error-handler.ts';
import { ConflictError, RuleError } from './errors.ts';

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
  app.get('/db-down', async () => {
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  });
  app.post('/typed', { schema: { body: z.object({ n: z.number().int(), nested: z.object({ s: z.string().min(2, 'too short') }) }) } }, async () => ({ ok: true }));
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
    expect((await app.inject({ method: 'GET', url: '/conflict' })).json()).toEqual({ error: { code: 'conflict', message: 'Already there' } });
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
