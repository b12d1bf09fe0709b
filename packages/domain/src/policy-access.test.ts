import { describe, expect, it } from 'vitest';
import type { OrgType } from './hierarchy.ts';
import { mayEndAccessOf, mayManageMfaPolicy, mayRequireMfaForAdmins, mayViewMfaPolicy, type Actor } from './policy.ts';

/** Ending a person's sessions and resetting their factors; reading and setting the second-factor policy. */

const at = (role: string, org_type: OrgType, extra: Partial<Actor['organization']> = {}): Actor => ({
  userId: 'me',
  role,
  organization: { id: 'o', org_type, path: '/h/o/', ...extra },
});

describe('mayEndAccessOf: an admin of the person’s organization or any above it', () => {
  const person = (role: string) => ({ id: 'them', role });

  it.each(['house_admin', 'super_agency_admin', 'agency_admin', 'tenant_admin'])(
    '%s ends the access of a person of equal or lower rank',
    (role) => {
      const type = role.replace(/_admin$/, '') as OrgType;
      expect(mayEndAccessOf(at(role, type), person('tenant_user'))).toBe(true);
      expect(mayEndAccessOf(at(role, type), person('tenant_manager'))).toBe(true);
      expect(mayEndAccessOf(at(role, type), person('tenant_admin'))).toBe(true);
    },
  );

  it('never oneself', () => {
    expect(mayEndAccessOf(at('agency_admin', 'agency'), { id: 'me', role: 'agency_admin' })).toBe(false);
  });

  it('takes users.delete: managers, users and support do not', () => {
    for (const level of ['manager', 'user', 'support'])
      expect(mayEndAccessOf(at(`agency_${level}`, 'agency'), person('tenant_user')), level).toBe(false);
  });

  it('never from a frozen organization, its own or one above it', () => {
    expect(mayEndAccessOf(at('agency_admin', 'agency', { status: 'suspended' }), person('tenant_user'))).toBe(false);
    expect(mayEndAccessOf(at('agency_admin', 'agency', { ancestor_status: 'inactive' }), person('tenant_user'))).toBe(false);
  });

  it('never someone of a higher rank', () => {
    // The generic admin role ranks as an admin; an unknown role ranks below every real one.
    expect(mayEndAccessOf(at('nobody', 'agency'), person('tenant_user'))).toBe(false);
    expect(mayEndAccessOf(at('admin', 'agency'), person('house_admin'))).toBe(true);
  });
});

describe('the second-factor policy', () => {
  it('is read and set by the organization’s own admins only', () => {
    const admin = at('agency_admin', 'agency');
    expect(mayViewMfaPolicy(admin, { id: 'o' })).toBe(true);
    expect(mayManageMfaPolicy(admin, { id: 'o' })).toBe(true);
    // A child's policy is the child's: the parent requires through its own subtree requirement.
    expect(mayViewMfaPolicy(admin, { id: 'child' })).toBe(false);
    expect(mayManageMfaPolicy(admin, { id: 'child' })).toBe(false);
    for (const level of ['manager', 'user', 'support']) {
      expect(mayViewMfaPolicy(at(`agency_${level}`, 'agency'), { id: 'o' }), level).toBe(false);
      expect(mayManageMfaPolicy(at(`agency_${level}`, 'agency'), { id: 'o' }), level).toBe(false);
    }
  });

  it('a frozen organization’s admins read it and change nothing', () => {
    const frozen = at('agency_admin', 'agency', { status: 'suspended' });
    expect(mayViewMfaPolicy(frozen, { id: 'o' })).toBe(true);
    expect(mayManageMfaPolicy(frozen, { id: 'o' })).toBe(false);
  });

  it('only the house requires a factor of every admin in the tree', () => {
    expect(mayRequireMfaForAdmins({ org_type: 'house' })).toBe(true);
    for (const type of ['super_agency', 'agency', 'tenant'] as const) expect(mayRequireMfaForAdmins({ org_type: type }), type).toBe(false);
  });
});
