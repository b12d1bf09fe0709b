import { describe, expect, it } from 'vitest';
import {
  isMfaEnrollmentExempt,
  isMfaEnrollmentOverdue,
  loosensMfaPolicy,
  mfaDaysLeft,
  mfaEnrollmentOf,
  mfaRequirementOf,
  sessionMeetsMfaRequirement,
  type MfaPolicyLink,
  type MfaPolicySettings,
} from './mfa-policy.ts';

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
const DAY = 86_400_000;
const day = (n: number) => new Date(Date.parse(T0) + n * DAY).toISOString();
/** T0 shifted by some milliseconds, as a Date. */
const at = (ms: number) => new Date(Date.parse(T0) + ms);

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

  it("takes an organization's own requirement only from the person's own organization, the subtree one only from above", () => {
    // The house's own and subtree switches, and the middle organization's own switch, are all on.
    const chain = [
      link(0, { own_since: T0, subtree_since: T0, grace_days: 1 }),
      link(1, { own_since: T0, subtree_since: T0, grace_days: 2 }),
      link(2, { own_since: T0, grace_days: 3 }),
    ];
    expect(mfaRequirementOf(chain, { role: 'agency_user', joined_at: T0 }).sources).toEqual([
      { organization_id: 'org-0', kind: 'subtree', grace_days: 1, deadline: day(1) },
      { organization_id: 'org-1', kind: 'subtree', grace_days: 2, deadline: day(2) },
      { organization_id: 'org-2', kind: 'own', grace_days: 3, deadline: day(3) },
    ]);
    // A person of the house itself: its own requirement, never its subtree one.
    expect(
      mfaRequirementOf([link(0, { own_since: T0, subtree_since: T0, grace_days: 4 })], { role: 'house_manager', joined_at: T0 }),
    ).toEqual({
      sources: [{ organization_id: 'org-0', kind: 'own', grace_days: 4, deadline: day(4) }],
      deadline: day(4),
    });
  });

  it('counts the admins requirement of the house alone, and only for an admin role', () => {
    const chain = [link(0, { admins_since: T0, grace_days: 6 }), link(1, { admins_since: T0, grace_days: 2 }), link(2)];
    const houseAdmins = { sources: [{ organization_id: 'org-0', kind: 'admins', grace_days: 6, deadline: day(6) }], deadline: day(6) };
    expect(mfaRequirementOf(chain, { role: 'agency_admin', joined_at: T0 })).toEqual(houseAdmins);
    expect(mfaRequirementOf(chain, { role: 'admin', joined_at: T0 })).toEqual(houseAdmins);
    for (const role of ['agency_manager', 'agency_user', 'agency_support', 'agency_administrator'])
      expect(mfaRequirementOf(chain, { role, joined_at: T0 })).toEqual({ sources: [], deadline: null });
    // The house's own admins: the same requirement, besides the house's own one.
    expect(
      mfaRequirementOf([link(0, { own_since: T0, admins_since: day(1), grace_days: 2 })], { role: 'house_admin', joined_at: T0 }),
    ).toEqual({
      sources: [
        { organization_id: 'org-0', kind: 'own', grace_days: 2, deadline: day(2) },
        { organization_id: 'org-0', kind: 'admins', grace_days: 2, deadline: day(3) },
      ],
      deadline: day(2),
    });
  });

  it('counts the admins requirement from when a person became an admin, other requirements from their joining', () => {
    const chain = [link(0, { admins_since: T0, grace_days: 5 }), link(1, { own_since: T0, grace_days: 9 })];
    // Joined at T0 as a user, promoted on day 20: the admins requirement gives the whole grace from then.
    expect(mfaRequirementOf(chain, { role: 'agency_admin', joined_at: T0, admin_since: day(20) })).toEqual({
      sources: [
        { organization_id: 'org-0', kind: 'admins', grace_days: 5, deadline: day(25) },
        { organization_id: 'org-1', kind: 'own', grace_days: 9, deadline: day(9) },
      ],
      deadline: day(9),
    });
    // A promotion before the requirement was switched on: the switch-on counts.
    expect(
      mfaRequirementOf([link(0, { admins_since: day(3), grace_days: 5 })], { role: 'admin', joined_at: T0, admin_since: day(1) }).deadline,
    ).toBe(day(8));
    // Null (an admin since joining) counts from the joining; a value before the joining cannot precede it.
    expect(
      mfaRequirementOf([link(0, { admins_since: T0, grace_days: 5 })], { role: 'admin', joined_at: day(2), admin_since: null }).deadline,
    ).toBe(day(7));
    expect(
      mfaRequirementOf([link(0, { admins_since: T0, grace_days: 5 })], { role: 'admin', joined_at: day(2), admin_since: day(1) }).deadline,
    ).toBe(day(7));
  });

  it('gives the earliest deadline wherever it falls among the requirements', () => {
    // The house's requirements come first and give the longer grace: the own organization's wins.
    const chain = [link(0, { subtree_since: T0, admins_since: T0, grace_days: 14 }), link(1, { own_since: T0, grace_days: 2 })];
    const { sources, deadline } = mfaRequirementOf(chain, { role: 'tenant_admin', joined_at: T0 });
    expect(sources.map((s) => [s.kind, s.deadline])).toEqual([
      ['subtree', day(14)],
      ['admins', day(14)],
      ['own', day(2)],
    ]);
    expect(deadline).toBe(day(2));
    // Switched on after the person joined: the grace counts from the switch.
    expect(
      mfaRequirementOf([link(0), link(1, { own_since: day(10), grace_days: 0 })], { role: 'tenant_user', joined_at: T0 }).deadline,
    ).toBe(day(10));
  });
});

describe("a person's enrollment", () => {
  it('is asked of a person under a requirement without a factor, and of nobody else', () => {
    expect(mfaEnrollmentOf(day(7), false)).toEqual({ required: true, deadline: day(7) });
    expect(mfaEnrollmentOf(day(7), true)).toBeNull();
    expect(mfaEnrollmentOf(null, false)).toBeNull();
    expect(mfaEnrollmentOf(null, true)).toBeNull();
  });

  it("is met by a session begun at the organization's identity provider, which asks its own factors; by no other session", () => {
    expect(sessionMeetsMfaRequirement('sso')).toBe(true);
    for (const method of ['password', 'passkey', null, undefined] as const) expect(sessionMeetsMfaRequirement(method)).toBe(false);
    expect(mfaEnrollmentOf(day(7), false, 'sso')).toBeNull();
    expect(mfaEnrollmentOf(day(7), false, 'password')).toEqual({ required: true, deadline: day(7) });
    expect(mfaEnrollmentOf(day(7), false, 'passkey')).toEqual({ required: true, deadline: day(7) });
    expect(mfaEnrollmentOf(day(7), false, null)).toEqual({ required: true, deadline: day(7) });
    // Past the deadline, an SSO session is not overdue: nothing is asked of it.
    expect(isMfaEnrollmentOverdue(mfaEnrollmentOf(day(-1), false, 'sso'), at(0))).toBe(false);
  });

  it('is overdue from the deadline itself on, to the millisecond', () => {
    const enrollment = { deadline: T0 };
    expect(isMfaEnrollmentOverdue(enrollment, at(-1))).toBe(false);
    expect(isMfaEnrollmentOverdue(enrollment, at(0))).toBe(true);
    expect(isMfaEnrollmentOverdue(enrollment, at(1))).toBe(true);
    expect(isMfaEnrollmentOverdue(enrollment, at(-DAY))).toBe(false);
    expect(isMfaEnrollmentOverdue(null, at(DAY))).toBe(false);
    expect(isMfaEnrollmentOverdue(undefined, at(DAY))).toBe(false);
  });

  it('counts the days left rounded up, and none once the deadline has passed', () => {
    expect(mfaDaysLeft(day(7), at(0))).toBe(7);
    expect(mfaDaysLeft(day(7), at(1))).toBe(7);
    expect(mfaDaysLeft(day(7), at(-1))).toBe(8);
    expect(mfaDaysLeft(day(1), at(DAY / 2))).toBe(1);
    expect(mfaDaysLeft(day(1), at(DAY - 1))).toBe(1);
    expect(mfaDaysLeft(day(1), at(DAY))).toBe(0);
    expect(mfaDaysLeft(day(1), at(DAY + 1))).toBe(0);
    expect(mfaDaysLeft(T0, at(3.5 * DAY))).toBe(0);
  });
});

describe('a loosening of the policy', () => {
  const off: MfaPolicySettings = { require_own: false, require_subtree: false, require_admins: false, grace_days: 7 };
  const on: MfaPolicySettings = { require_own: true, require_subtree: true, require_admins: true, grace_days: 7 };

  it('is any requirement turned off, or a longer grace', () => {
    expect(loosensMfaPolicy(on, { ...on, require_own: false })).toBe(true);
    expect(loosensMfaPolicy(on, { ...on, require_subtree: false })).toBe(true);
    expect(loosensMfaPolicy(on, { ...on, require_admins: false })).toBe(true);
    expect(loosensMfaPolicy(off, { ...off, grace_days: 8 })).toBe(true);
    expect(loosensMfaPolicy({ ...off, require_admins: true }, off)).toBe(true);
  });

  it('is not an unchanged policy, a requirement turned on, or a grace kept or shortened', () => {
    expect(loosensMfaPolicy(on, on)).toBe(false);
    expect(loosensMfaPolicy(off, off)).toBe(false);
    expect(loosensMfaPolicy(off, { ...off, require_own: true })).toBe(false);
    expect(loosensMfaPolicy(off, { ...off, require_subtree: true })).toBe(false);
    expect(loosensMfaPolicy(off, { ...off, require_admins: true })).toBe(false);
    expect(loosensMfaPolicy(on, { ...on, grace_days: 0 })).toBe(false);
  });
});
