import { describe, expect, it } from 'vitest';
import {
  SCIM_SCHEMA,
  scimBooleanSchema,
  scimErrorSchema,
  scimGroupInputSchema,
  scimGroupSchema,
  scimListResponseSchema,
  scimPatchOpSchema,
  scimResourceTypeSchema,
  scimServiceProviderConfigSchema,
  scimUserInputSchema,
  scimUserSchema,
  scimVersionSchema,
} from './schemas/scim.ts';

const ok = (schema: { safeParse: (v: unknown) => { success: boolean } }, value: unknown) => schema.safeParse(value).success;
const meta = (resourceType: 'User' | 'Group') => ({
  resourceType,
  created: '2026-12-01T10:00:00Z',
  lastModified: '2026-12-01T10:00:00+01:00',
  location: 'https://console.example/scim/v2/Users/1',
  version: 'W/"3"',
});
const user = {
  schemas: [SCIM_SCHEMA.user],
  id: '7b0a0ad1-6c4b-4b7e-9d0b-2f1f1f1f1f1f',
  userName: 'ann@acme.example',
  name: {},
  displayName: 'Ann',
  emails: [{ value: 'ann@acme.example', primary: true }],
  active: true,
  meta: meta('User'),
};

describe('SCIM requests, lenient where providers differ', () => {
  it('reads booleans and their text in any case, nothing else', () => {
    expect(scimBooleanSchema.parse(true)).toBe(true);
    expect(scimBooleanSchema.parse(' False ')).toBe(false);
    expect(scimBooleanSchema.parse('TRUE')).toBe(true);
    for (const bad of ['yes', '1', 1, null]) expect(ok(scimBooleanSchema, bad), String(bad)).toBe(false);
  });

  it('takes a user with unknown attributes, trimming what it keeps, and refuses what cannot be kept', () => {
    const parsed = scimUserInputSchema.parse({
      userName: ' ann@acme.example ',
      name: { givenName: ' Ann ', familyName: 'Lee', middleName: 'x' },
      active: 'False',
      externalId: ' 00u1 ',
      phoneNumbers: [{ value: '1' }],
    });
    expect(parsed).toMatchObject({
      userName: 'ann@acme.example',
      name: { givenName: 'Ann', familyName: 'Lee' },
      active: false,
      externalId: '00u1',
    });
    expect(parsed.phoneNumbers).toEqual([{ value: '1' }]);
    expect(ok(scimUserInputSchema, { userName: '  ' })).toBe(false);
    expect(ok(scimUserInputSchema, { userName: 'a@b.example', name: { givenName: 'A\nB' } })).toBe(false);
    expect(ok(scimUserInputSchema, { userName: 'a@b.example', externalId: 'x\u0000' })).toBe(false);
    expect(ok(scimUserInputSchema, { userName: 'a@b.example', name: { familyName: 'x'.repeat(101) } })).toBe(false);
    expect(ok(scimUserInputSchema, { userName: 'a@b.example', emails: [{ value: 'a@b.example', primary: 'True' }] })).toBe(true);
  });

  it('takes a group with a non-empty name and members by id', () => {
    expect(scimGroupInputSchema.parse({ displayName: ' Managers ', members: [{ value: ' u1 ' }] })).toMatchObject({
      displayName: 'Managers',
      members: [{ value: 'u1' }],
    });
    expect(ok(scimGroupInputSchema, { displayName: '   ' })).toBe(false);
    expect(ok(scimGroupInputSchema, { displayName: 'A', members: [{ value: '' }] })).toBe(false);
  });

  it('takes PATCH operations in any case, at least one', () => {
    expect(scimPatchOpSchema.parse({ Operations: [{ op: 'Replace', path: ' active ', value: 'False' }] }).Operations[0]).toEqual({
      op: 'replace',
      path: 'active',
      value: 'False',
    });
    expect(ok(scimPatchOpSchema, { Operations: [] })).toBe(false);
    expect(ok(scimPatchOpSchema, { Operations: [{ op: 'move' }] })).toBe(false);
    expect(ok(scimPatchOpSchema, { Operations: [{ op: 'add', path: '' }] })).toBe(false);
  });
});

describe('SCIM answers, as the server sends them', () => {
  it('names its schema, carries a weak version and dated meta', () => {
    expect(ok(scimUserSchema, user)).toBe(true);
    expect(ok(scimUserSchema, { ...user, schemas: [SCIM_SCHEMA.group] })).toBe(false);
    expect(ok(scimUserSchema, { ...user, meta: meta('Group') })).toBe(false);
    expect(ok(scimGroupSchema, { schemas: [SCIM_SCHEMA.group], id: user.id, displayName: 'Managers', meta: meta('Group') })).toBe(true);
    expect(ok(scimVersionSchema, 'W/"a1"')).toBe(true);
    for (const bad of ['"a1"', 'W/""', 'W/"a"b"', 'W/"a" ']) expect(ok(scimVersionSchema, bad), bad).toBe(false);
  });

  it('pages resources from 1, and says errors with their status as text', () => {
    const list = scimListResponseSchema(scimUserSchema);
    const page = { schemas: [SCIM_SCHEMA.listResponse], totalResults: 1, startIndex: 1, itemsPerPage: 1, Resources: [user] };
    expect(ok(list, page)).toBe(true);
    expect(ok(list, { ...page, startIndex: 0 })).toBe(false);
    expect(ok(list, { ...page, Resources: [{ ...user, active: 'true' }] })).toBe(false);
    expect(ok(scimErrorSchema, { schemas: [SCIM_SCHEMA.error], status: '409', scimType: 'uniqueness', detail: 'x' })).toBe(true);
    expect(ok(scimErrorSchema, { schemas: [SCIM_SCHEMA.error], status: 409 })).toBe(false);
    expect(ok(scimErrorSchema, { schemas: [SCIM_SCHEMA.error], status: '600' })).toBe(false);
    expect(ok(scimErrorSchema, { schemas: [SCIM_SCHEMA.error], status: '400', scimType: 'wrong' })).toBe(false);
  });

  it('describes the service: at least one authentication scheme, endpoints as paths', () => {
    const config = {
      schemas: [SCIM_SCHEMA.serviceProviderConfig],
      patch: { supported: true },
      bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
      filter: { supported: true, maxResults: 100 },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: true },
      authenticationSchemes: [{ type: 'oauthbearertoken', name: 'Bearer', description: 'A SCIM token' }],
    };
    expect(ok(scimServiceProviderConfigSchema, config)).toBe(true);
    expect(ok(scimServiceProviderConfigSchema, { ...config, authenticationSchemes: [] })).toBe(false);
    const type = {
      schemas: [SCIM_SCHEMA.resourceType],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      schema: SCIM_SCHEMA.user,
      meta: { resourceType: 'ResourceType', location: 'https://console.example/scim/v2/ResourceTypes/User' },
    };
    expect(ok(scimResourceTypeSchema, type)).toBe(true);
    expect(ok(scimResourceTypeSchema, { ...type, endpoint: 'Users' })).toBe(false);
  });
});
