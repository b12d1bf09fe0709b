import { describe, expect, it } from 'vitest';
import type { OrgType } from './hierarchy.ts';
import {
  grantableRoles,
  isDirectChild,
  isInSubtree,
  isOwnOrDirectChild,
  mayActOnRankOf,
  mayAdjustBalance,
  mayAllocateFrom,
  mayAllocateTo,
  mayReverseAllocation,
  withinReversalWindow,
  mayChangeOrganizationStatus,
  mayChangePersonStatus,
  mayChangeRoleOf,
  mayCreateChildOrganization,
  mayDeleteOrganization,
  mayEditOrganization,
  mayEditPerson,
  mayGiveRole,
  mayImportUsage,
  mayInviteTo,
  mayManageAgentsOf,
  mayManageApiKeysOf,
  mayManageBilling,
  mayManageCatalog,
  mayManageGlobalSettings,
  maySetLowBalanceThreshold,
  mayManageInvitationsOf,
  mayManagePeopleOf,
  mayOpenDebug,
  mayReadOrganization,
  mayReadOutbox,
  maySetAgentLimit,
  mayViewPerson,
  mayWatchChildBalances,
  mayWrite,
  frozenStanding,
  roleRank,
  type Actor,
  type OrganizationFacts,
} from './policy.ts';
import { invitableRoles, rolesForOrgType } from './roles.ts';

/** A small tree: house H > super agency S > agency A > tenant T, and a second agency B under S. */
const H: OrganizationFacts = { id: 'h', parent_org_id: null, org_type: 'house', status: 'active', path: '/h/' };
const S: OrganizationFacts = { id: 's', parent_org_id: 'h', org_type: 'super_agency', status: 'active', path: '/h/s/' };
const A: OrganizationFacts = { id: 'a', parent_org_id: 's', org_type: 'agency', status: 'active', path: '/h/s/a/' };
const B: OrganizationFacts = { id: 'b', parent_org_id: 's', org_type: 'agency', status: 'inactive', path: '/h/s/b/' };
const T: OrganizationFacts = { id: 't', parent_org_id: 'a', org_type: 'tenant', status: 'active', path: '/h/s/a/t/' };

function actor(level: string, org: OrganizationFacts, userId = `${level}@${org.id}`): Actor {
  return { userId, role: `${org.org_type}_${level}`, organization: { id: org.id, org_type: org.org_type as OrgType, path: org.path } };
}

const person = (id: string, org: OrganizationFacts, role = `${org.org_type}_user`) => ({ id, role, organization: org });

describe('relations', () => {
  const sAdmin = actor('admin', S);
  it('own, direct child, grandchild, parent, sibling', () => {
    expect([S, A, B, T, H].map((o) => isDirectChild(sAdmin, o))).toEqual([false, true, true, false, false]);
    expect([S, A, B, T, H].map((o) => isOwnOrDirectChild(sAdmin, o))).toEqual([true, true, true, false, false]);
    expect([S, A, B, T, H].map((o) => isInSubtree(sAdmin, o))).toEqual([true, true, true, true, false]);
  });

  it('a house has no parent, so nothing is the direct child of a null parent', () => {
    expect(isDirectChild({ role: 'house_admin', organization: { id: 'x', org_type: 'house' } }, { parent_org_id: null })).toBe(false);
  });

  it('without paths the subtree is unknown, and nothing counts as inside it', () => {
    expect(isInSubtree({ role: 'house_admin', organization: { id: 'h', org_type: 'house' } }, T)).toBe(false);
  });
});

describe('rank', () => {
  it('admin > manager > user = support; unknown below all', () => {
    expect(['house_admin', 'house_manager', 'house_user', 'house_support', 'nobody', null].map(roleRank)).toEqual([3, 2, 1, 1, 0, 0]);
  });

  it('roles up to the own rank are grantable, never above', () => {
    expect(grantableRoles(actor('manager', A), rolesForOrgType('agency'))).toEqual(['agency_manager', 'agency_user', 'agency_support']);
    expect(grantableRoles(actor('admin', A), invitableRoles('tenant'))).toEqual(['tenant_admin', 'tenant_manager', 'tenant_user']);
    expect(grantableRoles(actor('user', T), invitableRoles('tenant'))).toEqual(['tenant_user']);
  });

  it('a role must fit the organization type and the rank', () => {
    expect(mayGiveRole(actor('admin', S), 'agency', 'agency_admin')).toBe(true);
    expect(mayGiveRole(actor('admin', S), 'agency', 'tenant_admin')).toBe(false);
    expect(mayGiveRole(actor('manager', S), 'agency', 'agency_admin')).toBe(false);
    expect(mayGiveRole(actor('admin', S), 'tenant', 'tenant_support')).toBe(false);
  });
});

describe('organizations', () => {
  it('edit: own and direct children, for admins and managers', () => {
    expect([S, A, T, H].map((o) => mayEditOrganization(actor('admin', S), o))).toEqual([true, true, false, false]);
    expect([S, A].map((o) => mayEditOrganization(actor('manager', S), o))).toEqual([true, true]);
    expect([S, A].map((o) => mayEditOrganization(actor('support', S), o))).toEqual([false, false]);
    expect(mayEditOrganization(actor('user', T), T)).toBe(false);
  });

  it("delete: direct children only, by the parent's admins", () => {
    expect([S, A, T].map((o) => mayDeleteOrganization(actor('admin', S), o))).toEqual([false, true, false]);
    expect(mayDeleteOrganization(actor('manager', S), A)).toBe(false);
  });

  it('read: everyone their own organization; another one takes organizations.get', () => {
    for (const level of ['admin', 'manager', 'user', 'support']) expect(mayReadOrganization(actor(level, A), A)).toBe(true);
    expect(mayReadOrganization(actor('user', T), T)).toBe(true);
    expect([T, S].map((o) => mayReadOrganization(actor('user', A), o))).toEqual([false, false]);
    expect([T, S].map((o) => mayReadOrganization(actor('support', A), o))).toEqual([true, true]);
  });

  it('create: admins of every type but tenant', () => {
    expect([H, S, A, T].map((o) => mayCreateChildOrganization(actor('admin', o)))).toEqual([true, true, true, false]);
    expect(mayCreateChildOrganization(actor('manager', H))).toBe(false);
  });
});

describe('credits and billing', () => {
  it('allocate: from the own organization to an active direct child, by admins', () => {
    expect(mayAllocateFrom(actor('admin', S), S)).toBe(true);
    expect(mayAllocateFrom(actor('admin', S), A)).toBe(false);
    expect([A, B, T, S].map((o) => mayAllocateTo(actor('admin', S), o))).toEqual([true, false, false, false]);
    expect(mayAllocateTo(actor('manager', S), A)).toBe(false);
  });

  it("reversal: the sender's admins, from its sent entry, once, within 24 hours, an automatic top-up too", () => {
    const now = new Date('2026-11-27T12:00:00.000Z');
    const sent = {
      organization_id: 's',
      entry_type: 'allocation_sent',
      created_at: '2026-11-26T12:00:01.000Z',
      reversed_by: null,
      metadata: {},
    };
    expect(mayReverseAllocation(actor('admin', S), sent, now)).toBe(true);
    // A millisecond short of 24 hours is in; 24 hours exactly is out.
    expect(withinReversalWindow('2026-11-26T12:00:00.001Z', now)).toBe(true);
    expect(withinReversalWindow('2026-11-26T12:00:00.000Z', now)).toBe(false);
    expect(mayReverseAllocation(actor('admin', S), { ...sent, created_at: '2026-11-26T11:59:59.000Z' }, now)).toBe(false);
    expect(mayReverseAllocation(actor('admin', S), { ...sent, entry_type: 'allocation_received' }, now)).toBe(false);
    expect(mayReverseAllocation(actor('admin', S), { ...sent, reversed_by: 'r' }, now)).toBe(false);
    expect(mayReverseAllocation(actor('admin', S), { ...sent, metadata: { automatic: true } }, now)).toBe(true);
    // Another organization's allocation, or a role without the allocation permission.
    expect(mayReverseAllocation(actor('admin', H), sent, now)).toBe(false);
    expect(mayReverseAllocation(actor('manager', S), sent, now)).toBe(false);
    const frozen = actor('admin', S);
    expect(mayReverseAllocation({ ...frozen, organization: { ...frozen.organization, status: 'inactive' } }, sent, now)).toBe(false);
  });

  it("agent limit: a direct child's by its parent's admins; the house's own by the house's admins", () => {
    expect([A, S, T].map((o) => maySetAgentLimit(actor('admin', S), o))).toEqual([true, false, false]);
    expect([H, S].map((o) => maySetAgentLimit(actor('admin', H), o))).toEqual([true, true]);
    expect(maySetAgentLimit(actor('manager', H), H)).toBe(false);
  });

  it('billing management: the limit or the allocation permission', () => {
    expect(['admin', 'manager', 'user', 'support'].map((l) => mayManageBilling(actor(l, A)))).toEqual([true, false, false, false]);
  });

  it("adjustments: the house's admins on their own house only", () => {
    expect(mayAdjustBalance(actor('admin', H), H)).toBe(true);
    expect(mayAdjustBalance(actor('admin', H), S)).toBe(false);
    expect(mayAdjustBalance(actor('admin', S), S)).toBe(false);
    expect(mayAdjustBalance(actor('manager', H), H)).toBe(false);
  });

  it("children's balances: watched by the admins of every type, not by managers, users, support or an unknown role", () => {
    expect(['admin', 'manager', 'user', 'support'].map((l) => mayWatchChildBalances(actor(l, S)))).toEqual([true, false, false, false]);
    expect([H, S, A, T].map((o) => mayWatchChildBalances(actor('admin', o)))).toEqual([true, true, true, true]);
    expect(mayWatchChildBalances({ role: 'owner' })).toBe(false);
  });

  it("usage import: the house's admins", () => {
    expect([H, S, A, T].map((o) => mayImportUsage(actor('admin', o)))).toEqual([true, false, false, false]);
  });
});

describe('people and invitations', () => {
  it('manage people of the own organization and direct children (admins and managers)', () => {
    expect([S, A, T, H].map((o) => mayManagePeopleOf(actor('manager', S), o))).toEqual([true, true, false, false]);
    expect(mayManagePeopleOf(actor('support', S), S)).toBe(false);
  });

  it("invite: a child may refuse its parent's invitations; the own organization always accepts", () => {
    expect(mayInviteTo(actor('admin', S), { ...A, disable_parent_invites: true })).toBe(false);
    expect(mayInviteTo(actor('admin', S), { ...A, disable_parent_invites: false })).toBe(true);
    expect(mayInviteTo(actor('admin', S), { ...S, disable_parent_invites: true })).toBe(true);
  });

  it('invitations are resent, copied and revoked by admins within reach', () => {
    expect([S, A, T].map((o) => mayManageInvitationsOf(actor('admin', S), o))).toEqual([true, true, false]);
    expect(mayManageInvitationsOf(actor('manager', S), S)).toBe(false);
  });

  it('view: oneself always; others with users.get', () => {
    const me = actor('user', T);
    expect(mayViewPerson(me, { id: me.userId! })).toBe(true);
    expect(mayViewPerson(me, { id: 'someone' })).toBe(true);
    expect(mayViewPerson({ ...me, role: 'nobody' }, { id: 'someone' })).toBe(false);
  });

  it('edit: oneself with users.update; others by managers and admins within reach', () => {
    const user = actor('user', T);
    expect(mayEditPerson(user, person(user.userId!, T))).toBe(true);
    expect(mayEditPerson(user, person('other', T))).toBe(false);
    expect(mayEditPerson(actor('manager', S), person('x', A))).toBe(true);
    expect(mayEditPerson(actor('manager', S), person('x', T))).toBe(false);
    expect(mayEditPerson(actor('support', S), person('x', S))).toBe(false);
  });

  it('nobody edits, re-roles or deactivates a person of a higher rank; an equal rank is within reach', () => {
    const manager = actor('manager', S);
    for (const org of [S, A]) {
      expect(mayEditPerson(manager, person('x', org, `${org.org_type}_admin`)), org.id).toBe(false);
      expect(mayEditPerson(manager, person('x', org, `${org.org_type}_manager`)), org.id).toBe(true);
      expect(mayEditPerson(manager, person('x', org, `${org.org_type}_support`)), org.id).toBe(true);
    }
    expect(mayEditPerson(actor('support', S), person('x', S, 'super_agency_admin'))).toBe(false);
    const admin = actor('admin', S);
    expect(mayEditPerson(admin, person('x', A, 'agency_admin'))).toBe(true);
    expect(mayChangePersonStatus(admin, person('x', A, 'agency_admin'))).toBe(true);
    expect(mayChangeRoleOf(admin, person('x', A, 'agency_admin'))).toBe(true);
    // A role the ranks do not know ranks below every real one: only an unknown actor role is outranked.
    const unknown = { ...admin, role: 'mystery' };
    expect(mayActOnRankOf(unknown, person('x', S, 'super_agency_user'))).toBe(false);
    expect(mayActOnRankOf(admin, person('x', S, 'mystery'))).toBe(true);
  });

  it('status: never oneself; admins within reach', () => {
    const admin = actor('admin', S);
    expect(mayChangePersonStatus(admin, person(admin.userId!, S))).toBe(false);
    expect(mayChangePersonStatus(admin, person('x', A))).toBe(true);
    expect(mayChangePersonStatus(actor('manager', S), person('x', A))).toBe(false);
  });

  it('role: never one’s own; admins within reach', () => {
    const admin = actor('admin', S);
    expect(mayChangeRoleOf(admin, person(admin.userId!, S))).toBe(false);
    expect([S, A, T].map((o) => mayChangeRoleOf(admin, person('x', o)))).toEqual([true, true, false]);
    expect(mayChangeRoleOf(actor('manager', S), person('x', S))).toBe(false);
  });
});

describe('debug', () => {
  it('the debug page for admins of every type but tenant; the outbox for house admins', () => {
    expect([H, S, A, T].map((o) => mayOpenDebug(actor('admin', o)))).toEqual([true, true, true, false]);
    expect([H, S].map((o) => mayReadOutbox(actor('admin', o)))).toEqual([true, false]);
    expect(mayOpenDebug(actor('manager', H))).toBe(false);
  });
});

describe('standing: a suspended or inactive organization and its subtree read but do not write', () => {
  const frozen = (
    level: string,
    org: OrganizationFacts,
    status: 'suspended' | 'inactive' | 'active',
    ancestor: 'suspended' | 'inactive' | null = null,
  ): Actor => {
    const a = actor(level, org);
    return { ...a, organization: { ...a.organization, status, ancestor_status: ancestor } };
  };

  it('names the own status first, then the nearest one above; absent facts count as active', () => {
    expect(frozenStanding(actor('admin', S))).toBeNull();
    expect(frozenStanding(frozen('admin', S, 'active'))).toBeNull();
    expect(frozenStanding(frozen('admin', S, 'suspended'))).toEqual({ status: 'suspended', where: 'own' });
    expect(frozenStanding(frozen('admin', A, 'active', 'inactive'))).toEqual({ status: 'inactive', where: 'ancestor' });
    expect(frozenStanding(frozen('admin', A, 'inactive', 'suspended'))).toEqual({ status: 'inactive', where: 'own' });
  });

  it('every write predicate refuses a frozen actor, and the reads stay open', () => {
    for (const who of [frozen('admin', S, 'suspended'), frozen('admin', S, 'active', 'suspended'), frozen('admin', S, 'inactive')]) {
      expect(mayWrite(who)).toBe(false);
      expect(mayCreateChildOrganization(who)).toBe(false);
      expect(mayEditOrganization(who, S)).toBe(false);
      expect(mayEditOrganization(who, A)).toBe(false);
      expect(mayChangeOrganizationStatus(who, A)).toBe(false);
      expect(mayDeleteOrganization(who, A)).toBe(false);
      expect(mayAllocateFrom(who, S)).toBe(false);
      expect(mayAllocateTo(who, A)).toBe(false);
      expect(maySetAgentLimit(who, A)).toBe(false);
      expect(mayManagePeopleOf(who, A)).toBe(false);
      expect(mayInviteTo(who, S)).toBe(false);
      expect(mayManageInvitationsOf(who, S)).toBe(false);
      expect(mayEditPerson(who, person(who.userId!, S, who.role))).toBe(false);
      expect(mayChangeRoleOf(who, person('other', A))).toBe(false);
      expect(mayChangePersonStatus(who, person('other', A))).toBe(false);
      expect(mayViewPerson(who, person('other', A))).toBe(true);
      expect(isInSubtree(who, T)).toBe(true);
    }
    const house = { ...actor('admin', H), organization: { ...actor('admin', H).organization, status: 'suspended' as const } };
    expect(mayAdjustBalance(house, H)).toBe(false);
    expect(mayImportUsage(house)).toBe(false);
    expect(mayAdjustBalance(actor('admin', H), H)).toBe(true);
  });

  it("status: the parent's admins only, never the organization's own people; a house keeps its status", () => {
    expect(mayChangeOrganizationStatus(actor('admin', S), A)).toBe(true);
    expect(mayChangeOrganizationStatus(actor('admin', S), B)).toBe(true);
    expect(mayChangeOrganizationStatus(actor('manager', S), A)).toBe(false);
    expect(mayChangeOrganizationStatus(actor('admin', S), T)).toBe(false);
    expect(mayChangeOrganizationStatus(actor('admin', A), A)).toBe(false);
    expect(mayChangeOrganizationStatus(actor('manager', A), A)).toBe(false);
    expect(mayChangeOrganizationStatus(actor('admin', H), H)).toBe(false);
    expect(mayEditOrganization(actor('admin', A), A)).toBe(true);
  });
});

describe('agents, API keys and alerts', () => {
  it("the catalog is the house admins'", () => {
    expect([H, S, A, T].map((o) => mayManageCatalog(actor('admin', o)))).toEqual([true, false, false, false]);
    expect(mayManageCatalog(actor('manager', H))).toBe(false);
  });

  it("the global settings are the house admins'", () => {
    expect([H, S, A, T].map((o) => mayManageGlobalSettings(actor('admin', o)))).toEqual([true, false, false, false]);
    expect(['manager', 'user', 'support'].map((level) => mayManageGlobalSettings(actor(level, H)))).toEqual([false, false, false]);
  });

  it("agents are activated by an organization's admins and its parent's, not further up", () => {
    expect([S, A, T].map((o) => mayManageAgentsOf(actor('admin', S), o))).toEqual([true, true, false]);
    expect(mayManageAgentsOf(actor('manager', S), S)).toBe(false);
    expect(mayManageAgentsOf(actor('admin', T), T)).toBe(true);
  });

  it('API keys act for their organization, so only its own admins handle them', () => {
    expect([S, A].map((o) => mayManageApiKeysOf(actor('admin', S), o))).toEqual([true, false]);
    expect(mayManageApiKeysOf(actor('manager', S), S)).toBe(false);
  });

  it("the low-balance threshold is set by the organization's own admins", () => {
    expect([S, A].map((o) => maySetLowBalanceThreshold(actor('admin', S), o))).toEqual([true, false]);
    expect(maySetLowBalanceThreshold(actor('manager', S), S)).toBe(false);
  });

  it('a frozen organization activates, keys and sets nothing', () => {
    const frozen: Actor = { ...actor('admin', S), organization: { ...actor('admin', S).organization, status: 'suspended' } };
    expect([mayManageAgentsOf(frozen, S), mayManageApiKeysOf(frozen, S), maySetLowBalanceThreshold(frozen, S)]).toEqual([
      false,
      false,
      false,
    ]);
  });
});
