import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeJwtPart, normalizeClaims, type NormalizedClaims, type ParsingLogEntry } from './claims.ts';
import { can, PERMISSIONS } from './permissions.ts';

/** If claim parsing fails, the caller is a tenant_user with empty organization data. */
const FALLBACK: NormalizedClaims = {
  user_id: null,
  email: null,
  role: 'tenant_user',
  org_id: null,
  organization_id: null,
  organization_type: null,
  organization_name: null,
  isHouseRole: false,
  isAgencyRole: false,
};

/**
 * Node's Buffer, reached through globalThis because the package compiles without Node
 * types (tsconfig `types: []`). Its base64url encoder is independent of the atob path the
 * code under test uses.
 */
const { Buffer } = globalThis as unknown as {
  Buffer: { from(input: string, encoding?: 'utf8'): { toString(encoding: 'base64url'): string } };
};

const ORG_ID = '5b0d4a5e-2f6c-4b8e-9a43-0c1a5f3e7d21';

function claimsOf(payload: unknown): NormalizedClaims {
  return normalizeClaims(payload).claims;
}

function logOf(payload: unknown): ParsingLogEntry[] {
  return normalizeClaims(payload).log;
}

/** Builds an unsigned token the way a server would lay it out: base64url(header).base64url(payload).sig */
function jwt(payload: unknown, header: unknown = { alg: 'HS256', typ: 'JWT' }): string {
  const enc = (v: unknown) => Buffer.from(JSON.stringify(v), 'utf8').toString('base64url');
  return `${enc(header)}.${enc(payload)}.${Buffer.from('signature-bytes').toString('base64url')}`;
}

type Place = 'top' | 'app_metadata' | 'user_metadata';

function place(where: Place, bag: Record<string, unknown>): Record<string, unknown> {
  return where === 'top' ? bag : { [where]: bag };
}

describe('normalizeClaims: claims under alternative names and places', () => {
  const PLACES: Place[] = ['top', 'app_metadata', 'user_metadata'];

  const ORG_CLAIMS: { name: string; value: string; expect: Partial<NormalizedClaims> }[] = [
    { name: 'org_id', value: ORG_ID, expect: { org_id: ORG_ID, organization_id: ORG_ID } },
    { name: 'organization_id', value: ORG_ID, expect: { org_id: ORG_ID, organization_id: ORG_ID } },
    { name: 'org_type', value: 'tenant', expect: { organization_type: 'tenant' } },
    { name: 'organization_type', value: 'tenant', expect: { organization_type: 'tenant' } },
    { name: 'org_name', value: 'Acme Tenant', expect: { organization_name: 'Acme Tenant' } },
    { name: 'organization_name', value: 'Acme Tenant', expect: { organization_name: 'Acme Tenant' } },
  ];

  // The type is the exception: only server-owned places may set it (see "an org type only in user_metadata").
  const cases = PLACES.flatMap((where) =>
    ORG_CLAIMS.filter((c) => where !== 'user_metadata' || !c.name.endsWith('_type')).map((c) => ({ where, ...c })),
  );

  it.each(cases)('reads $name under $where', ({ where, name, value, expect: expected }) => {
    expect(claimsOf(place(where, { [name]: value }))).toMatchObject(expected);
  });

  it.each([
    ['top', 'role'],
    ['top', 'user_role'],
    ['app_metadata', 'role'],
    ['app_metadata', 'user_role'],
  ] as const)('reads the role under %s.%s', (where, name) => {
    expect(claimsOf(place(where, { [name]: 'agency_manager', org_type: 'agency' })).role).toBe('agency_manager');
  });

  it('reads a complete app_metadata layout (what this server issues)', () => {
    const claims = claimsOf({
      sub: 'user-1',
      email: 'ann@example.com',
      role: 'authenticated',
      app_metadata: { role: 'super_agency_manager', org_id: ORG_ID, org_type: 'super_agency', org_name: 'Big SA' },
    });
    expect(claims).toEqual({
      user_id: 'user-1',
      email: 'ann@example.com',
      role: 'super_agency_manager',
      org_id: ORG_ID,
      organization_id: ORG_ID,
      organization_type: 'super_agency',
      organization_name: 'Big SA',
      isHouseRole: false,
      isAgencyRole: true,
    });
  });

  it('reads a complete layout under the long names at the top level', () => {
    const claims = claimsOf({
      sub: 'user-2',
      email: 'bob@example.com',
      user_role: 'tenant_user',
      organization_id: ORG_ID,
      organization_type: 'tenant',
      organization_name: 'Small T',
    });
    expect(claims).toEqual({
      user_id: 'user-2',
      email: 'bob@example.com',
      role: 'tenant_user',
      org_id: ORG_ID,
      organization_id: ORG_ID,
      organization_type: 'tenant',
      organization_name: 'Small T',
      isHouseRole: false,
      isAgencyRole: false,
    });
  });

  it('exposes org_id also as organization_id', () => {
    const claims = claimsOf({ app_metadata: { organization_id: ORG_ID } });
    expect(claims.org_id).toBe(ORG_ID);
    expect(claims.organization_id).toBe(ORG_ID);
  });

  it('reads organization claims from different places in one token', () => {
    const claims = claimsOf({
      org_id: ORG_ID,
      app_metadata: { organization_type: 'agency' },
      user_metadata: { organization_name: 'Mixed Agency' },
    });
    expect(claims).toMatchObject({
      org_id: ORG_ID,
      organization_type: 'agency',
      organization_name: 'Mixed Agency',
      role: 'agency_admin',
    });
  });

  it('the server-owned app_metadata wins over user_metadata for organization claims', () => {
    const claims = claimsOf({
      app_metadata: { role: 'tenant_user', org_id: ORG_ID, org_type: 'tenant', org_name: 'Real' },
      user_metadata: { org_id: 'other', org_type: 'house', org_name: 'Forged' },
    });
    expect(claims).toMatchObject({
      role: 'tenant_user',
      org_id: ORG_ID,
      organization_type: 'tenant',
      organization_name: 'Real',
      isHouseRole: false,
    });
  });

  it('an organization type that is not one of the four is treated as no type', () => {
    const claims = claimsOf({ app_metadata: { org_type: 'galaxy', role: 'tenant_user' } });
    expect(claims.organization_type).toBeNull();
  });

  it('missing user id and e-mail are null', () => {
    const claims = claimsOf({ app_metadata: { role: 'tenant_user' } });
    expect(claims.user_id).toBeNull();
    expect(claims.email).toBeNull();
  });
});

describe('normalizeClaims: the generic authenticated role is treated as missing', () => {
  it('top-level authenticated with the real role under app_metadata gives the real role', () => {
    expect(claimsOf({ role: 'authenticated', app_metadata: { role: 'house_manager', org_type: 'house' } }).role).toBe('house_manager');
  });

  it.each([
    ['top', 'role'],
    ['top', 'user_role'],
    ['app_metadata', 'role'],
    ['app_metadata', 'user_role'],
  ] as const)('authenticated under %s.%s alone is inferred from the org type', (where, name) => {
    const payload = { ...place(where, { [name]: 'authenticated' }), org_type: 'agency' };
    expect(claimsOf(payload).role).toBe('agency_admin');
  });

  it('authenticated with no organization type becomes tenant_user', () => {
    expect(claimsOf({ role: 'authenticated' }).role).toBe('tenant_user');
  });

  it('authenticated never survives as the resulting role', () => {
    fc.assert(
      fc.property(fc.option(fc.constantFrom('house', 'super_agency', 'agency', 'tenant', 'other'), { nil: undefined }), (orgType) => {
        const payload = { role: 'authenticated', user_role: 'authenticated', app_metadata: { role: 'authenticated', org_type: orgType } };
        expect(claimsOf(payload).role).not.toBe('authenticated');
      }),
    );
  });
});

describe('normalizeClaims: a missing role is inferred from the organization type', () => {
  const INFERRED: [string, string | undefined, string][] = [
    ['house', 'house', 'house_admin'],
    ['super_agency', 'super_agency', 'super_agency_admin'],
    ['agency', 'agency', 'agency_admin'],
    ['tenant', 'tenant', 'tenant_admin'],
    ['no type', undefined, 'tenant_user'],
    ['an unknown type', 'galaxy', 'tenant_user'],
  ];

  it.each(INFERRED)('%s gives %s', (_label, orgType, role) => {
    expect(claimsOf({ app_metadata: { org_type: orgType } }).role).toBe(role);
    expect(claimsOf({ organization_type: orgType }).role).toBe(role);
  });

  it('an empty payload object gives tenant_user with empty organization data', () => {
    expect(claimsOf({})).toEqual(FALLBACK);
  });

  it.each([[''], [42], [true], [null], [{ nested: 'house_admin' }], [['house_admin']]])(
    'a role that is not a non-empty string (%j) counts as missing',
    (role) => {
      expect(claimsOf({ role, app_metadata: { org_type: 'tenant' } }).role).toBe('tenant_admin');
    },
  );

  it('a present role is kept as it is, not replaced by the inferred one', () => {
    expect(claimsOf({ app_metadata: { role: 'tenant_user', org_type: 'tenant' } }).role).toBe('tenant_user');
    expect(claimsOf({ app_metadata: { role: 'house_support', org_type: 'house' } }).role).toBe('house_support');
  });
});

describe('normalizeClaims: agency_admin in a super_agency', () => {
  it.each([
    ['top-level role', { role: 'agency_admin', app_metadata: { org_type: 'super_agency' } }],
    ['app_metadata role', { app_metadata: { role: 'agency_admin', org_type: 'super_agency' } }],
    ['user_role and organization_type', { user_role: 'agency_admin', organization_type: 'super_agency' }],
  ])('agency_admin (%s) in a super_agency becomes super_agency_admin', (_label, payload) => {
    const claims = claimsOf(payload);
    expect(claims.role).toBe('super_agency_admin');
    expect(claims.isAgencyRole).toBe(true);
  });

  it('agency_admin in an agency stays agency_admin', () => {
    expect(claimsOf({ app_metadata: { role: 'agency_admin', org_type: 'agency' } }).role).toBe('agency_admin');
  });

  it.each(['agency_manager', 'agency_user', 'agency_support', 'tenant_admin'])('%s in a super_agency is not promoted', (role) => {
    expect(claimsOf({ app_metadata: { role, org_type: 'super_agency' } }).role).toBe(role);
  });

  it('logs the promotion', () => {
    const log = logOf({ app_metadata: { role: 'agency_admin', org_type: 'super_agency' } });
    expect(log.some((e) => e.claim === 'role' && e.value === 'super_agency_admin')).toBe(true);
  });
});

describe('normalizeClaims: no account is promoted by its identity', () => {
  it('agency_admin in an agency stays agency_admin whatever the e-mail or user id', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.emailAddress(), fc.constantFrom('test@example.com', 'admin@test.com', 'superagency@test.com', 'qa+1@internal.test')),
        fc.uuid(),
        (email, sub) => {
          const claims = claimsOf({ sub, email, app_metadata: { role: 'agency_admin', org_type: 'agency' } });
          expect(claims.role).toBe('agency_admin');
        },
      ),
    );
  });
});

describe('normalizeClaims: a role in user_metadata grants nothing', () => {
  it.each(['role', 'user_role'])('a role only in user_metadata.%s is not used', (name) => {
    const claims = claimsOf({ user_metadata: { [name]: 'house_admin' } });
    expect(claims.role).not.toBe('house_admin');
    expect(claims.role).toBe('tenant_user');
    expect(claims.isHouseRole).toBe(false);
    expect(claims.isAgencyRole).toBe(false);
    for (const p of [
      'organizations.create',
      'organizations.delete',
      'organizations.allocate_credits',
      'users.update_role',
      'billing.manage',
    ] as const) {
      expect(can(claims.role, p)).toBe(false);
    }
  });

  it('a user_metadata role does not override the server role', () => {
    const claims = claimsOf({
      app_metadata: { role: 'tenant_user', org_type: 'tenant', org_id: ORG_ID },
      user_metadata: { role: 'house_admin', user_role: 'super_agency_admin' },
    });
    expect(claims.role).toBe('tenant_user');
    expect(claims.isHouseRole).toBe(false);
    expect(claims.isAgencyRole).toBe(false);
  });

  it('with a user_metadata role and only an org type, the role is inferred from the type as if the role were absent', () => {
    const withForgery = claimsOf({ app_metadata: { org_type: 'tenant' }, user_metadata: { role: 'house_admin' } });
    const without = claimsOf({ app_metadata: { org_type: 'tenant' } });
    expect(withForgery).toEqual(without);
    expect(withForgery.role).toBe('tenant_admin');
  });

  it('a user_metadata agency_admin is not promoted in a super_agency either', () => {
    const claims = claimsOf({
      app_metadata: { role: 'super_agency_user', org_type: 'super_agency' },
      user_metadata: { role: 'agency_admin' },
    });
    expect(claims.role).toBe('super_agency_user');
  });

  it.each(['role', 'user_role'])('logs user_metadata.%s as ignored', (name) => {
    const log = logOf({ user_metadata: { [name]: 'house_admin' } });
    const entry = log.find((e) => e.claim === 'role' && e.source.includes('user_metadata'));
    expect(entry).toBeDefined();
    expect(entry?.value).toBe('house_admin');
    expect(entry?.note ?? '').toMatch(/ignored/i);
  });

  it('adding any role to user_metadata never changes the resulting claims', () => {
    const trusted = fc.record(
      {
        role: fc.constantFrom('house_admin', 'tenant_user', 'agency_admin', 'authenticated', ''),
        org_type: fc.constantFrom('house', 'super_agency', 'agency', 'tenant', 'x'),
        org_id: fc.uuid(),
        org_name: fc.string(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(trusted, trusted, fc.constantFrom('role', 'user_role'), fc.string(), (app, top, name, forged) => {
        const base = { ...top, app_metadata: app, user_metadata: { note: 'x' } };
        const forgedPayload = { ...top, app_metadata: app, user_metadata: { note: 'x', [name]: forged } };
        expect(claimsOf(forgedPayload)).toEqual(claimsOf(base));
      }),
    );
  });
});

describe('normalizeClaims: isHouseRole and isAgencyRole', () => {
  // isHouseRole: role contains house_ or organization type house.
  // isAgencyRole: role contains agency_ or organization type agency or super_agency.
  const FLAGS: { role: string; orgType?: string; house: boolean; agency: boolean }[] = [
    { role: 'house_admin', house: true, agency: false },
    { role: 'house_user', orgType: 'house', house: true, agency: false },
    { role: 'house_manager', orgType: 'tenant', house: true, agency: false },
    { role: 'tenant_user', orgType: 'house', house: true, agency: false },
    { role: 'super_agency_admin', house: false, agency: true },
    { role: 'super_agency_user', orgType: 'super_agency', house: false, agency: true },
    { role: 'agency_manager', house: false, agency: true },
    { role: 'agency_support', orgType: 'tenant', house: false, agency: true },
    { role: 'tenant_admin', orgType: 'agency', house: false, agency: true },
    { role: 'tenant_admin', orgType: 'super_agency', house: false, agency: true },
    { role: 'tenant_admin', orgType: 'tenant', house: false, agency: false },
    { role: 'tenant_user', house: false, agency: false },
    { role: 'admin', house: false, agency: false },
  ];

  it.each(FLAGS)('role $role in org type $orgType: house=$house agency=$agency', ({ role, orgType, house, agency }) => {
    const claims = claimsOf({ app_metadata: { role, org_type: orgType } });
    expect(claims.isHouseRole).toBe(house);
    expect(claims.isAgencyRole).toBe(agency);
  });

  it.each([
    ['house', true, false],
    ['super_agency', false, true],
    ['agency', false, true],
    ['tenant', false, false],
  ] as const)('an inferred role in a %s: house=%s agency=%s', (orgType, house, agency) => {
    const claims = claimsOf({ app_metadata: { org_type: orgType } });
    expect(claims.isHouseRole).toBe(house);
    expect(claims.isAgencyRole).toBe(agency);
  });
});

describe('normalizeClaims: a payload that is not an object falls back to tenant_user', () => {
  it.each([[null], [undefined], [42], [0], ['eyJhbGciOi'], [''], [true], [[]], [[{ role: 'house_admin' }]]])('%j', (payload) => {
    const result = normalizeClaims(payload);
    expect(result.claims).toEqual(FALLBACK);
    expect(result.log.length).toBeGreaterThan(0);
  });

  it('returns a fresh fallback object each time (mutating one does not affect the next)', () => {
    const first = claimsOf(null);
    first.role = 'house_admin';
    expect(claimsOf(null).role).toBe('tenant_user');
  });

  it('metadata that is not an object (array, string) is ignored, not an error', () => {
    const claims = claimsOf({ app_metadata: ['house_admin'], user_metadata: 'house_admin', org_type: 'agency' });
    expect(claims.role).toBe('agency_admin');
    expect(claims.organization_type).toBe('agency');
  });
});

describe('normalizeClaims: parsing log (the debug page Parsing Logs)', () => {
  it.each([
    ['role', 'app_metadata', 'role', 'tenant_manager'],
    ['role', 'app_metadata', 'user_role', 'tenant_manager'],
    ['role', 'top', 'role', 'tenant_manager'],
    ['role', 'top', 'user_role', 'tenant_manager'],
    ['org_id', 'app_metadata', 'org_id', ORG_ID],
    ['org_id', 'top', 'organization_id', ORG_ID],
    ['org_id', 'user_metadata', 'org_id', ORG_ID],
    ['org_type', 'app_metadata', 'organization_type', 'tenant'],
    ['org_name', 'top', 'org_name', 'Named'],
    ['org_name', 'user_metadata', 'organization_name', 'Named'],
  ] as const)('a %s read from %s.%s is logged naming that source', (claim, where, name, value) => {
    const log = logOf(place(where, { [name]: value }));
    const entry = log.find((e) => e.claim === claim && e.value === value);
    expect(entry).toBeDefined();
    expect(entry!.source).toContain(name);
    if (where !== 'top') expect(entry!.source).toContain(where);
    else expect(entry!.source).not.toMatch(/metadata/);
  });

  it('an org type only in user_metadata is not read: it would drive role inference', () => {
    const claims = claimsOf({ user_metadata: { org_type: 'house' } });
    expect(claims).toMatchObject({ role: 'tenant_user', organization_type: null, isHouseRole: false });
    expect(claimsOf({ role: 'agency_admin', user_metadata: { org_type: 'super_agency' } }).role).toBe('agency_admin');
  });

  it('a value that is not an org type does not hide a valid one', () => {
    const claims = claimsOf({ app_metadata: { org_type: 'foo' }, org_type: 'agency' });
    expect(claims).toMatchObject({ organization_type: 'agency', role: 'agency_admin' });
  });

  it('claims that are not found are logged as such', () => {
    const log = logOf({});
    for (const claim of ['role', 'org_id', 'org_type', 'org_name']) {
      expect(log.some((e) => e.claim === claim && e.value === null)).toBe(true);
    }
  });

  it('an ignored authenticated role is logged with its source', () => {
    const log = logOf({ role: 'authenticated', app_metadata: { org_type: 'tenant' } });
    const entry = log.find((e) => e.claim === 'role' && e.value === 'authenticated');
    expect(entry).toBeDefined();
    expect(entry!.source).toContain('role');
    expect(entry!.note ?? '').toMatch(/ignored/i);
  });

  it('an inferred role is logged with the value it was given', () => {
    const log = logOf({ app_metadata: { org_type: 'house' } });
    expect(log.some((e) => e.claim === 'role' && e.value === 'house_admin')).toBe(true);
  });

  it('a parse failure is logged', () => {
    const log = logOf('not an object');
    expect(log).toHaveLength(1);
    expect(log[0]!.note ?? '').toMatch(/tenant_user/);
  });

  it('each call starts a new log', () => {
    normalizeClaims({ app_metadata: { role: 'house_admin' } });
    const log = logOf(null);
    expect(log.some((e) => e.value === 'house_admin')).toBe(false);
  });
});

describe('normalizeClaims: properties', () => {
  it('never throws and always returns a non-empty role string for arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (payload) => {
        const { claims, log } = normalizeClaims(payload);
        expect(typeof claims.role).toBe('string');
        expect(claims.role.length).toBeGreaterThan(0);
        expect(claims.role).not.toBe('authenticated');
        expect(claims.organization_id).toBe(claims.org_id);
        expect([null, 'house', 'super_agency', 'agency', 'tenant']).toContain(claims.organization_type);
        expect(typeof claims.isHouseRole).toBe('boolean');
        expect(typeof claims.isAgencyRole).toBe('boolean');
        expect(Array.isArray(log)).toBe(true);
      }),
    );
  });

  it('never throws for arbitrary values, including token-shaped objects', () => {
    const claimValue = fc.oneof(
      fc.constantFrom('house_admin', 'agency_admin', 'tenant_user', 'authenticated', 'house', 'super_agency', 'agency', 'tenant', ''),
      fc.anything(),
    );
    const bag = fc.record(
      {
        role: claimValue,
        user_role: claimValue,
        org_id: claimValue,
        organization_id: claimValue,
        org_type: claimValue,
        organization_type: claimValue,
        org_name: claimValue,
        organization_name: claimValue,
      },
      { requiredKeys: [] },
    );
    const payload = fc.oneof(
      fc.anything(),
      fc
        .record(
          { sub: claimValue, email: claimValue, app_metadata: fc.oneof(bag, fc.anything()), user_metadata: fc.oneof(bag, fc.anything()) },
          { requiredKeys: [] },
        )
        .chain((p) => bag.map((top) => ({ ...top, ...p }))),
    );
    fc.assert(
      fc.property(payload, (p) => {
        const { claims } = normalizeClaims(p);
        expect(typeof claims.role).toBe('string');
        expect(claims.role).not.toBe('');
        expect(claims.user_id === null || typeof claims.user_id === 'string').toBe(true);
        expect(claims.email === null || typeof claims.email === 'string').toBe(true);
        expect(claims.isHouseRole).toBe(claims.role.includes('house_') || claims.organization_type === 'house');
        expect(claims.isAgencyRole).toBe(
          claims.role.includes('agency_') || claims.organization_type === 'agency' || claims.organization_type === 'super_agency',
        );
      }),
    );
  });
});

describe('decodeJwtPart', () => {
  const payload = {
    sub: 'a1b2c3',
    email: 'zoë@example.com',
    role: 'authenticated',
    app_metadata: {
      role: 'agency_manager',
      org_id: ORG_ID,
      org_type: 'agency',
      org_name: 'Société Ünïcode — 日本語 🚀 ÿÿ>>>???',
    },
    exp: 1_900_000_000,
  };
  const token = jwt(payload);

  it('the test token really is base64url (uses - or _ and no padding)', () => {
    const segment = token.split('.')[1]!;
    expect(segment).toMatch(/[-_]/);
    expect(segment).not.toMatch(/[+/=]/);
  });

  it('decodes the payload (part 1), including unicode', () => {
    expect(decodeJwtPart(token, 1)).toEqual(payload);
  });

  it('decodes the header (part 0)', () => {
    expect(decodeJwtPart(token, 0)).toEqual({ alg: 'HS256', typ: 'JWT' });
  });

  it('feeds normalizeClaims: unicode organization name survives', () => {
    const claims = claimsOf(decodeJwtPart(token, 1));
    expect(claims).toEqual({
      user_id: 'a1b2c3',
      email: 'zoë@example.com',
      role: 'agency_manager',
      org_id: ORG_ID,
      organization_id: ORG_ID,
      organization_type: 'agency',
      organization_name: 'Société Ünïcode — 日本語 🚀 ÿÿ>>>???',
      isHouseRole: false,
      isAgencyRole: true,
    });
  });

  it('decodes segments of every padding length', () => {
    // Payloads whose JSON lengths differ by one byte give base64url lengths of every residue.
    const residues = new Set<number>();
    for (const name of ['a', 'ab', 'abc', 'abcd']) {
      const t = jwt({ org_name: name });
      residues.add(t.split('.')[1]!.length % 4);
      expect(decodeJwtPart(t, 1)).toEqual({ org_name: name });
    }
    expect(residues.size).toBeGreaterThanOrEqual(3);
  });

  it('round-trips arbitrary JSON objects with arbitrary unicode', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: 'grapheme' }), fc.jsonValue({ maxDepth: 3 }), { noNullPrototype: true }), (obj) => {
        const decoded = decodeJwtPart(jwt(obj), 1);
        expect(decoded).toEqual(JSON.parse(JSON.stringify(obj)));
      }),
    );
  });

  it.each([
    ['an empty string', ''],
    ['a string with no dots', 'not-a-token'],
    ['a token with an empty payload', 'aGVhZGVy..c2ln'],
    ['single letters', 'a.b.c'],
    ['characters outside base64', 'x.%%%$$$.y'],
    ['base64 that is not JSON', `x.${Buffer.from('hello world').toString('base64url')}.y`],
    ['base64 of truncated JSON', `x.${Buffer.from('{"role":"house_').toString('base64url')}.y`],
    ['base64 of a JSON array', `x.${Buffer.from('["house_admin"]').toString('base64url')}.y`],
    ['base64 of a JSON string', `x.${Buffer.from('"house_admin"').toString('base64url')}.y`],
    ['base64 of JSON null', `x.${Buffer.from('null').toString('base64url')}.y`],
    ['base64 of a JSON number', `x.${Buffer.from('42').toString('base64url')}.y`],
  ])('returns null for %s', (_label, garbage) => {
    expect(decodeJwtPart(garbage, 1)).toBeNull();
  });

  it('returns null when the requested part does not exist', () => {
    const headerOnly = token.split('.')[0]!;
    expect(decodeJwtPart(headerOnly, 1)).toBeNull();
  });

  it('never throws for arbitrary strings, and a decoded garbage payload still normalizes', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom(0 as const, 1 as const), (s, part) => {
        const decoded = decodeJwtPart(s, part);
        expect(decoded === null || (typeof decoded === 'object' && !Array.isArray(decoded))).toBe(true);
        expect(typeof claimsOf(decoded).role).toBe('string');
      }),
    );
  });

  it('a garbage token normalizes to the tenant_user fallback', () => {
    expect(claimsOf(decodeJwtPart('garbage', 1))).toEqual(FALLBACK);
  });
});

describe('normalizeClaims: the result never carries more permissions than the server role', () => {
  it('a token whose trusted role is tenant_user holds only what tenant_user holds, whatever user_metadata says', () => {
    fc.assert(
      fc.property(fc.constantFrom('house_admin', 'admin', 'super_agency_admin', 'agency_admin'), (forged) => {
        const claims = claimsOf({ app_metadata: { role: 'tenant_user', org_type: 'tenant' }, user_metadata: { role: forged } });
        for (const p of PERMISSIONS) expect(can(claims.role, p)).toBe(can('tenant_user', p));
      }),
    );
  });
});
