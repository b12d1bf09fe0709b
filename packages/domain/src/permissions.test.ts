import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PERMISSIONS, can, type Permission } from './permissions.ts';

/** The product's permission table: the names. */
const ALL: Permission[] = [
  'organizations.list',
  'organizations.get',
  'organizations.create',
  'organizations.update',
  'organizations.delete',
  'organizations.allocate_credits',
  'organizations.manage_activated_agent_limit',
  'users.list',
  'users.get',
  'users.create',
  'users.update',
  'users.delete',
  'users.update_role',
  'users.read',
  'resources.view',
  'resources.manage',
  'billing.view',
  'billing.manage',
];

/**
 * The product's permission table, level by level:
 * - admin (all four types and plain admin): all
 * - manager: organizations list, get, update; users list, get, create, update, read;
 *   resources view; billing view
 * - user: users get, update, read; resources view; billing view
 * - support (absent from the product's table, made read-only): list/get of organizations and users, users
 *   read, resources view, billing view
 */
const HELD_BY_LEVEL: Record<'admin' | 'manager' | 'user' | 'support', Permission[]> = {
  admin: ALL,
  manager: [
    'organizations.list',
    'organizations.get',
    'organizations.update',
    'users.list',
    'users.get',
    'users.create',
    'users.update',
    'users.read',
    'resources.view',
    'billing.view',
  ],
  user: ['users.get', 'users.update', 'users.read', 'resources.view', 'billing.view'],
  support: ['organizations.list', 'organizations.get', 'users.list', 'users.get', 'users.read', 'resources.view', 'billing.view'],
};

const TYPES = ['house', 'super_agency', 'agency', 'tenant'] as const;
const LEVELS = ['admin', 'manager', 'user', 'support'] as const;

const ROLE_ROWS: { role: string; level: keyof typeof HELD_BY_LEVEL }[] = [
  ...TYPES.flatMap((type) => LEVELS.map((level) => ({ role: `${type}_${level}`, level }))),
  { role: 'admin', level: 'admin' },
];

const FULL_TABLE = ROLE_ROWS.flatMap(({ role, level }) =>
  ALL.map((permission) => ({ role, permission, held: HELD_BY_LEVEL[level].includes(permission) })),
);

/** Permissions that change something: none of them may be held by the support level. */
const WRITES: Permission[] = [
  'organizations.create',
  'organizations.update',
  'organizations.delete',
  'organizations.allocate_credits',
  'organizations.manage_activated_agent_limit',
  'users.create',
  'users.update',
  'users.delete',
  'users.update_role',
  'resources.manage',
  'billing.manage',
];

const UNKNOWN_ROLES = [
  'authenticated',
  'anon',
  'service_role',
  'super_admin',
  'owner',
  'house',
  'agency',
  'HOUSE_ADMIN',
  'house-admin',
  'galaxy_admin',
  'tenant_owner',
  ' admin',
  'admin ',
  '',
];

describe('PERMISSIONS', () => {
  it("names the product table's permissions and the ones added for house and admin actions", () => {
    expect([...PERMISSIONS].sort()).toEqual([...ALL, ...Object.keys(ADDED)].sort());
  });
});

describe("can(): the full role x permission table of the product's table", () => {
  it(`covers ${ROLE_ROWS.length} roles x ${ALL.length} permissions`, () => {
    expect(FULL_TABLE).toHaveLength(17 * 18);
  });

  it.each(FULL_TABLE)('$role holds $permission: $held', ({ role, permission, held }) => {
    expect(can(role, permission)).toBe(held);
  });
});

describe('can(): level summaries', () => {
  it.each(['house_admin', 'super_agency_admin', 'agency_admin', 'tenant_admin', 'admin'])('%s holds every permission', (role) => {
    expect(ALL.filter((p) => !can(role, p))).toEqual([]);
  });

  it.each(TYPES.map((t) => `${t}_manager`))(
    '%s cannot create/delete organizations, allocate, manage limits, delete users, change roles or manage',
    (role) => {
      expect(ALL.filter((p) => !can(role, p)).sort()).toEqual(
        [
          'organizations.create',
          'organizations.delete',
          'organizations.allocate_credits',
          'organizations.manage_activated_agent_limit',
          'users.delete',
          'users.update_role',
          'resources.manage',
          'billing.manage',
        ].sort(),
      );
    },
  );

  it.each(TYPES.map((t) => `${t}_user`))('%s holds nothing on organizations and cannot list users', (role) => {
    expect(ALL.filter((p) => p.startsWith('organizations.') && can(role, p))).toEqual([]);
    expect(can(role, 'users.list')).toBe(false);
  });

  it.each(TYPES.map((t) => `${t}_support`))('%s is read-only: holds no write permission', (role) => {
    expect(WRITES.filter((p) => can(role, p))).toEqual([]);
  });

  it.each(TYPES.map((t) => `${t}_support`))('%s can read organizations, users, resources and billing', (role) => {
    for (const p of ['organizations.list', 'organizations.get', 'users.list', 'users.get', 'resources.view', 'billing.view'] as const) {
      expect(can(role, p)).toBe(true);
    }
  });

  it('a lower level never holds a permission a higher level lacks (user within manager within admin)', () => {
    for (const type of TYPES) {
      for (const p of ALL) {
        if (can(`${type}_user`, p)) expect(can(`${type}_manager`, p)).toBe(true);
        if (can(`${type}_manager`, p)) expect(can(`${type}_admin`, p)).toBe(true);
        if (can(`${type}_support`, p)) expect(can(`${type}_admin`, p)).toBe(true);
      }
    }
  });

  it("the product table's permissions depend on the level only, never on the organization type", () => {
    for (const level of LEVELS) {
      for (const p of ALL) {
        const held = TYPES.map((t) => can(`${t}_${level}`, p));
        expect(new Set(held).size).toBe(1);
      }
    }
  });
});

describe('can(): unknown roles hold nothing', () => {
  it.each(UNKNOWN_ROLES)('%j holds no permission', (role) => {
    expect(ALL.filter((p) => can(role, p))).toEqual([]);
  });

  it.each([[null], [undefined]])('%j holds no permission', (role) => {
    expect(ALL.filter((p) => can(role, p))).toEqual([]);
  });

  it('an arbitrary string that is not a role holds no permission', () => {
    const roles = new Set(ROLE_ROWS.map((r) => r.role));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: 'grapheme' }),
          // near-misses built from real parts
          fc
            .tuple(
              fc.constantFrom('house', 'super_agency', 'agency', 'tenant', 'super', ''),
              fc.constantFrom('_', '-', '__', ''),
              fc.string(),
            )
            .map(([a, b, c]) => a + b + c),
        ),
        fc.constantFrom(...ALL),
        (role, permission) => {
          fc.pre(!roles.has(role));
          expect(can(role, permission)).toBe(false);
        },
      ),
    );
  });
});

/**
 * Permissions added to the product's table so that no code compares role names: invitation
 * management for admins, and house-only or non-tenant actions.
 */
const ADDED: Record<Exclude<Permission, (typeof ALL)[number]>, string[]> = {
  'invitations.manage': ['house_admin', 'super_agency_admin', 'agency_admin', 'tenant_admin', 'admin'],
  'credits.adjust': ['house_admin'],
  'credits.import_usage': ['house_admin'],
  'debug.outbox': ['house_admin'],
  'debug.view': ['house_admin', 'super_agency_admin', 'agency_admin'],
  'agents.catalog': ['house_admin'],
  'api_keys.manage': ['house_admin', 'super_agency_admin', 'agency_admin', 'tenant_admin', 'admin'],
  'audit.view': ['house_admin', 'super_agency_admin', 'agency_admin', 'tenant_admin', 'admin'],
  'webhooks.manage': ['house_admin', 'super_agency_admin', 'agency_admin', 'tenant_admin', 'admin'],
  'settings.manage': ['house_admin'],
  'identity.manage': ['house_admin', 'super_agency_admin', 'agency_admin', 'tenant_admin', 'admin'],
  'invoices.manage': ['house_admin', 'super_agency_admin', 'agency_admin'],
};

describe('can(): the added permissions', () => {
  it.each(Object.entries(ADDED))('%s is held by exactly %j', (permission, holders) => {
    expect(ROLE_ROWS.map((r) => r.role).filter((role) => can(role, permission as Permission))).toEqual(holders);
  });

  it.each([[null], [undefined], [''], ['authenticated']])('%j holds none of them', (role) => {
    expect(Object.keys(ADDED).filter((p) => can(role, p as Permission))).toEqual([]);
  });
});
