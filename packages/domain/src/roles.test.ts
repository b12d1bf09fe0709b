import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ALL_ROLES,
  ROLE_LEVELS,
  invitableRoles,
  isRole,
  isRoleValidForOrgType,
  parseRole,
  roleLabel,
  roleLevel,
  rolesForOrgType,
} from './roles.ts';
import type { OrgType } from './hierarchy.ts';

const TYPES: OrgType[] = ['house', 'super_agency', 'agency', 'tenant'];

/** Roles are {type}_{level} (admin, manager, user, support) plus a plain admin. */
const EXPECTED_ROLES = [
  'house_admin',
  'house_manager',
  'house_user',
  'house_support',
  'super_agency_admin',
  'super_agency_manager',
  'super_agency_user',
  'super_agency_support',
  'agency_admin',
  'agency_manager',
  'agency_user',
  'agency_support',
  'tenant_admin',
  'tenant_manager',
  'tenant_user',
  'tenant_support',
  'admin',
];

describe('role catalogue', () => {
  it('has the levels admin, manager, user, support', () => {
    expect([...ROLE_LEVELS].sort()).toEqual(['admin', 'manager', 'support', 'user']);
  });

  it('holds every {type}_{level} role and plain admin, nothing else', () => {
    expect([...ALL_ROLES].sort()).toEqual([...EXPECTED_ROLES].sort());
  });

  it.each(EXPECTED_ROLES)('isRole(%s) is true', (role) => {
    expect(isRole(role)).toBe(true);
  });

  it.each([
    'authenticated',
    'anon',
    'service_role',
    'house',
    'HOUSE_ADMIN',
    'house-admin',
    'houseadmin',
    'house_owner',
    'superagency_admin',
    'super_agency',
    '_admin',
    'admin_',
    ' admin',
    '',
  ])('isRole(%j) is false', (role) => {
    expect(isRole(role)).toBe(false);
  });

  it.each([[null], [undefined], [1], [{}], [['admin']]])('isRole rejects the non-string %j', (value) => {
    expect(isRole(value)).toBe(false);
  });
});

describe('parseRole / roleLevel', () => {
  it.each([
    ['house_admin', 'house', 'admin'],
    ['house_support', 'house', 'support'],
    ['super_agency_admin', 'super_agency', 'admin'],
    ['super_agency_manager', 'super_agency', 'manager'],
    ['super_agency_user', 'super_agency', 'user'],
    ['agency_admin', 'agency', 'admin'],
    ['agency_support', 'agency', 'support'],
    ['tenant_user', 'tenant', 'user'],
    ['tenant_manager', 'tenant', 'manager'],
  ] as const)('%s is type %s, level %s', (role, orgType, level) => {
    expect(parseRole(role)).toEqual({ orgType, level });
    expect(roleLevel(role)).toBe(level);
  });

  it('plain admin has level admin and no organization type', () => {
    expect(parseRole('admin')).toEqual({ orgType: null, level: 'admin' });
    expect(roleLevel('admin')).toBe('admin');
  });

  it.each(['authenticated', 'super_admin', 'agency_owner', 'galaxy_admin', 'house__admin', 'house_', '_user', '', 'Admin'])(
    'unknown role %j parses to null',
    (role) => {
      expect(parseRole(role)).toBeNull();
      expect(roleLevel(role)).toBeNull();
    },
  );

  it('parses exactly the catalogue roles', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.constantFrom(...EXPECTED_ROLES)), (s) => {
        expect(parseRole(s) !== null).toBe(EXPECTED_ROLES.includes(s));
      }),
    );
  });
});

describe('invitableRoles (roles offered when inviting)', () => {
  const OFFERED: [OrgType, string[]][] = [
    ['house', ['house_admin', 'house_manager', 'house_user']],
    ['super_agency', ['super_agency_admin', 'super_agency_manager', 'super_agency_user']],
    ['agency', ['agency_admin', 'agency_manager', 'agency_user']],
    ['tenant', ['tenant_admin', 'tenant_manager', 'tenant_user']],
  ];

  it.each(OFFERED)('a %s offers %j', (orgType, roles) => {
    expect(invitableRoles(orgType)).toEqual(roles);
  });

  it('offers no role when there is no organization type (null)', () => {
    expect(invitableRoles(null)).toEqual([]);
  });

  it('offers no role when the organization type is undefined', () => {
    expect(invitableRoles(undefined)).toEqual([]);
  });

  it('never offers a support role through an invitation', () => {
    for (const type of TYPES) expect(invitableRoles(type).some((r) => r.endsWith('_support'))).toBe(false);
  });

  it('every offered role is valid in the organization it is offered for', () => {
    for (const type of TYPES) {
      for (const role of invitableRoles(type)) expect(isRoleValidForOrgType(role, type)).toBe(true);
    }
  });
});

describe('rolesForOrgType / isRoleValidForOrgType', () => {
  /**
   * At registration, admin, manager and support of house, super_agency and
   * agency; admin, manager and user of tenant. Invitations also offer {type}_user for the
   * upper types, so a user record may hold it too.
   */
  const VALID: Record<OrgType, string[]> = {
    house: ['house_admin', 'house_manager', 'house_user', 'house_support'],
    super_agency: ['super_agency_admin', 'super_agency_manager', 'super_agency_user', 'super_agency_support'],
    agency: ['agency_admin', 'agency_manager', 'agency_user', 'agency_support'],
    tenant: ['tenant_admin', 'tenant_manager', 'tenant_user'],
  };

  it.each(TYPES)('%s accepts exactly its own roles', (type) => {
    expect([...rolesForOrgType(type)].sort()).toEqual([...VALID[type]].sort());
  });

  it('tenant_support is not a role a tenant user record may hold', () => {
    expect(isRoleValidForOrgType('tenant_support', 'tenant')).toBe(false);
  });

  const matrix = TYPES.flatMap((orgType) => EXPECTED_ROLES.map((role) => ({ orgType, role, valid: VALID[orgType].includes(role) })));

  it.each(matrix)('$role in a $orgType is valid=$valid', ({ orgType, role, valid }) => {
    expect(isRoleValidForOrgType(role, orgType)).toBe(valid);
  });

  it.each([
    ['house_admin', 'tenant'],
    ['super_agency_admin', 'agency'],
    ['agency_admin', 'super_agency'],
    ['tenant_admin', 'house'],
    ['agency_user', 'tenant'],
    ['tenant_user', 'agency'],
  ] as const)('rejects the cross-type role %s in a %s', (role, orgType) => {
    expect(isRoleValidForOrgType(role, orgType)).toBe(false);
  });

  it.each(['authenticated', 'admin', '', 'house', 'super_admin'])('rejects %j for every type', (role) => {
    for (const type of TYPES) expect(isRoleValidForOrgType(role, type)).toBe(false);
  });

  it('a role is valid in at most one organization type (never across types)', () => {
    for (const role of EXPECTED_ROLES) {
      expect(TYPES.filter((t) => isRoleValidForOrgType(role, t)).length).toBeLessThanOrEqual(1);
    }
  });

  it('a valid role always names the organization type it is valid for', () => {
    fc.assert(
      fc.property(fc.constantFrom(...TYPES), fc.constantFrom(...EXPECTED_ROLES), (type, role) => {
        if (isRoleValidForOrgType(role, type)) expect(parseRole(role)?.orgType).toBe(type);
      }),
    );
  });
});

describe('roleLabel (each word capitalized, underscores shown as spaces)', () => {
  it.each([
    ['super_agency_admin', 'Super Agency Admin'],
    ['tenant_user', 'Tenant User'],
    ['admin', 'Admin'],
    ['_odd__role_', 'Odd Role'],
  ])('%s -> %s', (role, label) => {
    expect(roleLabel(role)).toBe(label);
  });
});
