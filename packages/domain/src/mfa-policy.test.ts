import { describe, expect, it } from 'vitest';
import { isMfaEnrollmentExempt, loosensMfaPolicy, mfaRequirementOf, type MfaPolicyLink } from './mfa-policy.ts';

const link = (depth: number, over: Partial<MfaPolicyLink> = {}): MfaPolicyLink => ({
  organization_id: `org-${depth}`,
  depth,
  own_since: null,
  subtree_since: null,
  admins_since: null,
  grace_days: 7,
  ...over,
});
const T0 = '2026-01-01T00:00:00.000Z';
const day = (n: number) => new Date(Date.parse(T0) + n * 86_400_000).toISOString();

describe('the second-factor requirement', () => {
  it('is the union of what reaches the person; the earliest deadline wins; a grace starts at the later of switch-on and joining', () => {
    const chain = [
      link(0, { admins_since: T0, grace_days: 10 }),
      link(1, { subtree_since: T0, grace_days: 5 }),
      link(2, { own_since: day(1), grace_days: 14, subtree_since: T0 }),
    ];
    // Depth 2 is the person's own organization: its subtree requirement does not reach its own people.
    expect(mfaRequirementOf(chain, { role: 'agency_user', joined_at: T0 })).toEqual({
      sources: [
        { organization_id: 'org-1', kind: 'subtree', grace_days: 5, deadline: day(5) },
        { organization_id: 'org-2', kind: 'own', grace_days: 14, deadline: day(15) },
      ],
      deadline: day(5),
    });
    expect(mfaRequirementOf(chain, { role: 'agency_admin', joined_at: day(3) }).deadline).toBe(day(8));
    expect(mfaRequirementOf([link(0), link(1)], { role: 'super_agency_admin', joined_at: T0 })).toEqual({ sources: [], deadline: null });
  });

  it('is loosened by a requirement turned off or a longer grace, never by a tightening', () => {
    const on = { require_own: true, require_subtree: true, require_admins: false, grace_days: 3 };
    expect(loosensMfaPolicy(on, { ...on, grace_days: 2 })).toBe(false);
    expect(loosensMfaPolicy(on, { ...on, require_admins: true })).toBe(false);
    expect(loosensMfaPolicy(on, { ...on, grace_days: 4 })).toBe(true);
    expect(loosensMfaPolicy(on, { ...on, require_subtree: false })).toBe(true);
  });

  it('leaves the account, the profile and the session routes open past the deadline', () => {
    expect(['/account/factors/totp', '/users/me', '/auth/step-up'].every(isMfaEnrollmentExempt)).toBe(true);
    expect(['/users', '/users/:id', '/dashboard', '/organizations/:id/mfa-policy'].some(isMfaEnrollmentExempt)).toBe(false);
  });
});
