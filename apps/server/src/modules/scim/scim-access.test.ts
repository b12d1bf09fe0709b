import { describe, expect, it } from 'vitest';
import {
  IDENTITY,
  MESSAGES,
  SCIM_SCHEMA,
  scimListResponseSchema,
  scimResourceTypeSchema,
  scimSchemaDefinitionSchema,
  scimServiceProviderConfigSchema,
  scimUserSchema,
} from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { expectScimError, makeScimToken, scimClient, userBody } from '../../test/scim-client.ts';
import { callPath, trimCalls, CALLS_KEPT } from './calls.ts';

const w = useWorld();
const db = () => w.t.database.db;

describe('the door', () => {
  it('refuses a missing, malformed, unknown or foreign-looking bearer with 401 in the SCIM error shape, before reading the body', async () => {
    const anonymous = await w.t.request('GET', '/scim/v2/Users');
    expectScimError(anonymous, 401);
    expect(anonymous.body.detail).toBe(MESSAGES.identity.scimUnauthorized);
    for (const secret of ['scim_nope', 'not-a-scim-token', `scim_${'x'.repeat(300)}`]) {
      expectScimError(await scimClient(w.t, secret).get('/Users'), 401);
    }
    // A session's access token is no SCIM token.
    expectScimError(await scimClient(w.t, await w.as('A1.admin')).get('/Users'), 401);
    // Malformed JSON from an unknown token: 401, not a parse error.
    const raw = await w.t.request('POST', '/scim/v2/Users', undefined, {
      token: 'scim_unknown',
      raw: '{not json',
      headers: { 'content-type': 'application/scim+json' },
    });
    expectScimError(raw, 401);
  });

  it('stops a revoked token and a rotated-away secret at once; the new secret works', async () => {
    const token = await makeScimToken(w, 'A1.admin', w.id('A1'), 'Rotating');
    const scim = scimClient(w.t, token.secret);
    expect((await scim.get('/Users')).status).toBe(200);
    const rotated = await w.t.request('POST', `/api/organizations/${w.id('A1')}/scim-tokens/${token.id}/rotate`, undefined, {
      token: await w.as('A1.admin'),
    });
    expect(rotated.status).toBe(200);
    expectScimError(await scim.get('/Users'), 401);
    const renewed = scimClient(w.t, rotated.body.secret);
    expect((await renewed.get('/Users')).status).toBe(200);
    const revoked = await w.t.request('DELETE', `/api/organizations/${w.id('A1')}/scim-tokens/${token.id}`, undefined, {
      token: await w.as('A1.admin'),
    });
    expect(revoked.status).toBe(200);
    expectScimError(await renewed.get('/Users'), 401);
  });

  it('records the last use at most once a minute', async () => {
    const token = await makeScimToken(w, 'A1.admin', w.id('A1'), 'Last use');
    const scim = scimClient(w.t, token.secret);
    await scim.get('/ServiceProviderConfig');
    const first = await db().selectFrom('scim_tokens').select('last_used_at').where('id', '=', token.id).executeTakeFirstOrThrow();
    expect(first.last_used_at).not.toBeNull();
    await scim.get('/ServiceProviderConfig');
    const second = await db().selectFrom('scim_tokens').select('last_used_at').where('id', '=', token.id).executeTakeFirstOrThrow();
    expect(second.last_used_at).toBe(first.last_used_at);
  });
});

describe('discovery', () => {
  it('answers ServiceProviderConfig, ResourceTypes and Schemas in their RFC shapes', async () => {
    const scim = scimClient(w.t, (await makeScimToken(w, 'A1.admin', w.id('A1'), 'Discovery')).secret);
    const config = await scim.get('/ServiceProviderConfig');
    expect(config.status).toBe(200);
    expect(config.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    const parsed = scimServiceProviderConfigSchema.parse(config.body);
    expect(parsed.patch.supported).toBe(true);
    expect(parsed.etag.supported).toBe(true);
    expect(parsed.filter.maxResults).toBe(IDENTITY.scimMaxPage);

    const types = scimListResponseSchema(scimResourceTypeSchema).parse((await scim.get('/ResourceTypes')).body);
    expect(types.Resources.map((r) => r.endpoint).sort()).toEqual(['/Groups', '/Users']);
    scimResourceTypeSchema.parse((await scim.get('/ResourceTypes/User')).body);

    const schemas = scimListResponseSchema(scimSchemaDefinitionSchema).parse((await scim.get('/Schemas')).body);
    expect(schemas.Resources.map((s) => s.id).sort()).toEqual([SCIM_SCHEMA.group, SCIM_SCHEMA.user].sort());
    scimSchemaDefinitionSchema.parse((await scim.get(`/Schemas/${SCIM_SCHEMA.user}`)).body);
    expectScimError(await scim.get('/Schemas/urn:nothing'), 404);
  });
});

describe('requests', () => {
  it('takes application/scim+json and application/json; refuses other bodies, bad JSON and unknown routes in the SCIM shape', async () => {
    const token = await makeScimToken(w, 'A1.admin', w.id('A1'), 'Bodies');
    const scim = scimClient(w.t, token.secret);
    const created = await scim.post('/Users', userBody('bodies-1@a1.test'));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    scimUserSchema.parse(created.body);
    const plain = await w.t.request('POST', '/scim/v2/Users', userBody('bodies-2@a1.test'), { token: token.secret });
    expect(plain.status).toBe(201);
    const charset = await w.t.request('POST', '/scim/v2/Users', userBody('bodies-3@a1.test'), {
      token: token.secret,
      headers: { 'content-type': 'application/scim+json; charset=utf-8' },
    });
    expect(charset.status).toBe(201);

    const text = await w.t.request('POST', '/scim/v2/Users', undefined, {
      token: token.secret,
      raw: 'userName=x',
      headers: { 'content-type': 'text/plain' },
    });
    expectScimError(text, 415);
    const broken = await w.t.request('POST', '/scim/v2/Users', undefined, {
      token: token.secret,
      raw: '{"userName": ',
      headers: { 'content-type': 'application/scim+json' },
    });
    expectScimError(broken, 400, 'invalidSyntax');
    expectScimError(await scim.post('/Users', [1, 2]), 400, 'invalidSyntax');
    expectScimError(await scim.post('/Users', { userName: 42 }), 400, 'invalidValue');
    expectScimError(await scim.post('/Users', { userName: 'not an e-mail' }), 400, 'invalidValue');
    expectScimError(await scim.get('/Nothing'), 404);
    expectScimError(await scim.call('POST', '/Users/.search', {}), 404);
  });

  it('lets the provider of a suspended organization read but not write', async () => {
    const token = await makeScimToken(w, 'T1.admin', w.id('T1'), 'Frozen');
    const scim = scimClient(w.t, token.secret);
    await db().updateTable('organizations').set({ status: 'suspended' }).where('id', '=', w.id('A1')).execute();
    try {
      expect((await scim.get('/Users')).status).toBe(200);
      expectScimError(await scim.post('/Users', userBody('frozen@t1.test')), 403);
    } finally {
      await db().updateTable('organizations').set({ status: 'active' }).where('id', '=', w.id('A1')).execute();
    }
  });
});

describe('calls', () => {
  it('records every call of a known token, refused ones too, without query secrets; the Identity page lists them with the token', async () => {
    const token = await makeScimToken(w, 'SA1.admin', w.id('SA1'), 'Recorder');
    const scim = scimClient(w.t, token.secret);
    await scim.post('/Users', userBody('recorded@sa1.test'));
    await scim.post('/Users', userBody('recorded@sa1.test'));
    await scim.get('/Users?filter=userName%20eq%20%22recorded@sa1.test%22&access_token=secret123');
    await scim.get('/Users?filter=title%20co%20%22x%22');
    await scimClient(w.t, 'scim_unknown').get('/Users');
    const calls = await w.t.request('GET', `/api/organizations/${w.id('SA1')}/scim-calls`, undefined, { token: await w.as('SA1.admin') });
    expect(calls.status).toBe(200);
    const items = calls.body.items as { method: string; path: string; status: number; outcome: string; token: { name: string } }[];
    expect(items.map((c) => [c.method, c.path, c.status, c.outcome])).toEqual([
      ['GET', '/Users?filter=title co "x"', 400, '400 invalidFilter'],
      ['GET', '/Users?filter=userName eq "recorded@sa1.test"', 200, 'listed 1 of 1 users'],
      ['POST', '/Users', 409, '409 uniqueness'],
      ['POST', '/Users', 201, 'created recorded@sa1.test'],
    ]);
    expect(items.every((c) => c.token.name === 'Recorder')).toBe(true);
    expect(JSON.stringify(items)).not.toContain('secret123');
  });

  it('keeps the path short and the table bounded', async () => {
    expect(callPath('/scim/v2/Users/abc?startIndex=2&count=5&token=x')).toBe('/Users/abc?startIndex=2&count=5');
    expect(callPath(`/scim/v2/Users?filter=${'a'.repeat(400)}`).length).toBeLessThanOrEqual(300);
    const org = w.id('A3');
    await db()
      .insertInto('scim_calls')
      .values(
        Array.from({ length: CALLS_KEPT + 20 }, (_, i) => ({
          organization_id: org,
          method: 'GET',
          path: `/Users/${i}`,
          status: 200,
          outcome: 'ok',
        })),
      )
      .execute();
    await trimCalls(db(), org);
    const left = await db().selectFrom('scim_calls').select(['path']).where('organization_id', '=', org).orderBy('id').execute();
    expect(left).toHaveLength(CALLS_KEPT);
    expect(left[0]!.path).toBe('/Users/20');
  });
});
