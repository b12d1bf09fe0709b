import { ALLOCATION_REVERSAL } from './constants.ts';
import { childTypeOf, type OrgStatus, type OrgType } from './hierarchy.ts';
import { can } from './permissions.ts';
import { isRoleValidForOrgType, roleLevel, type Role, type RoleLevel } from './roles.ts';

/**
 * Who may do what to which organization or person. The server's services decide with
 * these predicates and the console offers an action exactly when they allow it, so a
 * rule cannot drift between the two. Each predicate is pure: the server reads the facts
 * from the database (after locking, where a write follows), the console from its
 * session and the rows the server sent.
 */

/** The person acting: a role held in one organization. */
export interface Actor {
  /** Present on the server (always) and in the console (the signed-in user's id). */
  userId?: string | null;
  role: string;
  organization: {
    id: string;
    org_type: OrgType;
    /** Materialized path `/<house id>/.../<own id>/`; known on the server only. */
    path?: string;
    /** The organization's own status (absent: taken as active). */
    status?: OrgStatus;
    /**
     * The status of the nearest organization above it that is not active, or null when
     * every one above is active; known on the server only (absent: taken as active).
     */
    ancestor_status?: OrgStatus | null;
  };
}

/** An organization as a predicate needs it. */
export interface OrganizationFacts {
  id: string;
  parent_org_id: string | null;
  org_type?: OrgType;
  status?: OrgStatus;
  path?: string;
  disable_parent_invites?: boolean;
}

/** A person as a predicate needs it: who they are and where they belong. */
export interface PersonFacts {
  id: string;
  role: string;
  organization: Pick<OrganizationFacts, 'id' | 'parent_org_id'>;
}

// Relations ------------------------------------------------------------------------

/** The actor's own organization. */
export const isOwnOrganization = (actor: Actor, org: Pick<OrganizationFacts, 'id'>): boolean => org.id === actor.organization.id;

/** A direct child of the actor's organization (one level down, not a grandchild). */
export const isDirectChild = (actor: Actor, org: Pick<OrganizationFacts, 'parent_org_id'>): boolean =>
  org.parent_org_id !== null && org.parent_org_id === actor.organization.id;

/** The own organization or a direct child: the reach of edits and of managing people. */
export const isOwnOrDirectChild = (actor: Actor, org: Pick<OrganizationFacts, 'id' | 'parent_org_id'>): boolean =>
  isOwnOrganization(actor, org) || isDirectChild(actor, org);

/**
 * The own organization or one of its descendants: everything the actor may read. Decided
 * on materialized paths, so both sides must know them (the server always does).
 */
export function isInSubtree(actor: Actor, org: Pick<OrganizationFacts, 'path'>): boolean {
  const own = actor.organization.path;
  return !!own && !!org.path && org.path.startsWith(own);
}

// Standing -------------------------------------------------------------------------

/**
 * Why the actor may not write, or null when they may: their organization is suspended or
 * inactive (`own`), or one above it is (`ancestor`), since the subtree of a suspended or
 * inactive organization is frozen with it. Reading stays open.
 */
export function frozenStanding(actor: Actor): { status: Exclude<OrgStatus, 'active'>; where: 'own' | 'ancestor' } | null {
  const own = actor.organization.status;
  if (own && own !== 'active') return { status: own, where: 'own' };
  const above = actor.organization.ancestor_status;
  if (above && above !== 'active') return { status: above, where: 'ancestor' };
  return null;
}

/** The people of a suspended or inactive organization, or of one below it, read but do not write. */
export const mayWrite = (actor: Actor): boolean => frozenStanding(actor) === null;

// Rank -----------------------------------------------------------------------------

/** admin outranks manager, which outranks user and support (equal to each other). */
export const ROLE_RANK: Record<RoleLevel, number> = { admin: 3, manager: 2, user: 1, support: 1 };

/** The rank of a role; an unknown role ranks below every real one. */
export function roleRank(role: string | null | undefined): number {
  const level = role ? roleLevel(role) : null;
  return level ? ROLE_RANK[level] : 0;
}

/** Nobody gives a role above their own. */
export const mayGrantRole = (actor: Actor, role: string): boolean => roleRank(role) <= roleRank(actor.role);

/** Of these roles, the ones the actor may give (pass `invitableRoles` or `rolesForOrgType` of a type). */
export function grantableRoles(actor: Actor, roles: readonly Role[]): Role[] {
  return roles.filter((role) => mayGrantRole(actor, role));
}

// Organizations ----------------------------------------------------------------------

export const mayListOrganizations = (actor: Actor): boolean => can(actor.role, 'organizations.list');

/** Reading another organization in the subtree (the server also answers 404 outside it). */
export const mayViewOrganization = (actor: Actor): boolean => can(actor.role, 'organizations.get');

/**
 * Everyone reads their own organization (name, type, status, balance, limit), since the
 * pages every level is granted (resources, billing) show it; reading another one of the
 * subtree takes organizations.get.
 */
export function mayReadOrganization(actor: Actor, org: Pick<OrganizationFacts, 'id'>): boolean {
  return isOwnOrganization(actor, org) || mayViewOrganization(actor);
}

/** Creates only direct children of the next type down, so a tenant creates nothing. */
export function mayCreateChildOrganization(actor: Actor): boolean {
  return can(actor.role, 'organizations.create') && childTypeOf(actor.organization.org_type) !== null && mayWrite(actor);
}

/**
 * The role edits organizations at all, before the target or the standing is known: a role
 * without it is refused plainly, whatever it would edit.
 */
export const mayEditOrganizations = (actor: Pick<Actor, 'role'>): boolean => can(actor.role, 'organizations.update');

/** Edits reach the own organization and its direct children. */
export function mayEditOrganization(actor: Actor, org: Pick<OrganizationFacts, 'id' | 'parent_org_id'>): boolean {
  return mayEditOrganizations(actor) && isOwnOrDirectChild(actor, org) && mayWrite(actor);
}

/**
 * An organization's status (active, inactive, suspended) is changed by the admins of its
 * parent only, never by its own people; a house, which has no parent, keeps its status.
 */
export function mayChangeOrganizationStatus(actor: Actor, org: Pick<OrganizationFacts, 'parent_org_id'>): boolean {
  return mayEditOrganizations(actor) && roleRank(actor.role) >= ROLE_RANK.admin && isDirectChild(actor, org) && mayWrite(actor);
}

/** Only admins of the parent delete an organization. */
export function mayDeleteOrganization(actor: Actor, org: Pick<OrganizationFacts, 'parent_org_id'>): boolean {
  return can(actor.role, 'organizations.delete') && isDirectChild(actor, org) && mayWrite(actor);
}

// Credits and billing ----------------------------------------------------------------

export const mayViewBilling = (actor: Actor): boolean => can(actor.role, 'billing.view');

/**
 * The admins of an organization watch its children's balances: the dashboard lists the
 * children below their low-balance threshold to them, and a low child without an active
 * admin of its own is mailed to them.
 */
export const mayWatchChildBalances = (actor: Pick<Actor, 'role'>): boolean => roleRank(actor.role) >= ROLE_RANK.admin;

/**
 * The role moves credits at all (from its own organization to its direct children), before any
 * organization is known: the console shows its credits tab to these people, and only they
 * create an organization with credits.
 */
export const mayAllocateCredits = (actor: Pick<Actor, 'role'>): boolean => can(actor.role, 'organizations.allocate_credits');

/** Credits leave only the actor's own organization. */
export function mayAllocateFrom(actor: Actor, org: Pick<OrganizationFacts, 'id'>): boolean {
  return mayAllocateCredits(actor) && isOwnOrganization(actor, org) && mayWrite(actor);
}

/** Credits go to an active direct child only. */
export function mayAllocateTo(actor: Actor, org: Pick<OrganizationFacts, 'parent_org_id' | 'status'>): boolean {
  return mayAllocateCredits(actor) && isDirectChild(actor, org) && org.status === 'active' && mayWrite(actor);
}

/** An allocation made at `createdAt` may still be reversed at `now`: within `ALLOCATION_REVERSAL.windowHours`. */
export function withinReversalWindow(createdAt: string, now: Date): boolean {
  return now.getTime() - Date.parse(createdAt) < ALLOCATION_REVERSAL.windowHours * 3_600_000;
}

/** A ledger entry as the reversal rule reads it. */
export interface ReversibleEntry {
  organization_id: string;
  entry_type: string;
  created_at: string;
  reversed_by: string | null;
  metadata: Record<string, unknown>;
}

/**
 * An allocation is given back by the admins of the organization that made it (from its
 * `allocation_sent` entry): once and within the window, an automatic top-up as any other (a
 * child may have pulled one it did not need). Whether the child's balance still covers it,
 * that is whether the child has not spent it, is the server's to say, under the lock.
 */
export function mayReverseAllocation(actor: Actor, entry: ReversibleEntry, now: Date): boolean {
  return (
    entry.entry_type === 'allocation_sent' &&
    entry.reversed_by === null &&
    withinReversalWindow(entry.created_at, now) &&
    mayAllocateFrom(actor, { id: entry.organization_id })
  );
}

/** The Billing Management page: the agent-limit or the allocation permission. */
export function mayManageBilling(actor: Actor): boolean {
  return can(actor.role, 'organizations.manage_activated_agent_limit') || mayAllocateCredits(actor);
}

/**
 * A direct child's activated agent limit is set by its parent's admins; the house, which
 * has no parent, has its limit set by its own admins.
 */
export function maySetAgentLimit(actor: Actor, org: Pick<OrganizationFacts, 'id' | 'parent_org_id' | 'org_type'>): boolean {
  if (!can(actor.role, 'organizations.manage_activated_agent_limit') || !mayWrite(actor)) return false;
  return isDirectChild(actor, org) || (org.org_type === 'house' && isOwnOrganization(actor, org));
}

/** Credits enter or leave the system only through the house's own balance. */
export function mayAdjustBalance(actor: Actor, org: Pick<OrganizationFacts, 'id'>): boolean {
  return can(actor.role, 'credits.adjust') && isOwnOrganization(actor, org) && mayWrite(actor);
}

/** Metered usage is recorded for any organization the actor can read. */
export const mayImportUsage = (actor: Actor): boolean => can(actor.role, 'credits.import_usage') && mayWrite(actor);

/** The own organization's low-balance threshold is set by its admins. */
export function maySetLowBalanceThreshold(actor: Actor, org: Pick<OrganizationFacts, 'id'>): boolean {
  return can(actor.role, 'billing.manage') && isOwnOrganization(actor, org) && mayWrite(actor);
}

/** The alert lines are the low-balance threshold's successors: the same people add, change and delete them. */
export const mayManageAlertLines = (actor: Actor, org: Pick<OrganizationFacts, 'id'>): boolean => maySetLowBalanceThreshold(actor, org);

// Agents and API keys -------------------------------------------------------------------

/** The agent catalog (types, units, prices) is kept by the house's admins. */
export const mayManageCatalog = (actor: Actor): boolean => can(actor.role, 'agents.catalog') && mayWrite(actor);

/** The global settings (documentation, billing portal, community links) are kept by the house's admins; everyone reads them. */
export const mayManageGlobalSettings = (actor: Actor): boolean => can(actor.role, 'settings.manage') && mayWrite(actor);

/** Reading an organization's agents (its activations and their usage). */
export const mayViewAgents = (actor: Actor): boolean => can(actor.role, 'resources.view');

/** Activating and deactivating agents: an organization's admins, and its parent's. */
export function mayManageAgentsOf(actor: Actor, org: Pick<OrganizationFacts, 'id' | 'parent_org_id'>): boolean {
  return can(actor.role, 'resources.manage') && isOwnOrDirectChild(actor, org) && mayWrite(actor);
}

/**
 * API keys act for an organization, so only its own admins read them; a read changes nothing,
 * so a frozen organization's admins still read them.
 */
export const mayViewApiKeysOf = (actor: Actor, org: Pick<OrganizationFacts, 'id'>): boolean =>
  can(actor.role, 'api_keys.manage') && isOwnOrganization(actor, org);

/** Making, editing, rolling and revoking keys: the same admins, while their organization is not frozen. */
export const mayManageApiKeysOf = (actor: Actor, org: Pick<OrganizationFacts, 'id'>): boolean =>
  mayViewApiKeysOf(actor, org) && mayWrite(actor);

/**
 * Webhook endpoints send an organization's events (and, when asked, its subtree's) to a
 * machine, so only its own admins read them and their deliveries; a frozen organization's
 * admins still read them.
 */
export const mayViewWebhooksOf = (actor: Actor, org: Pick<OrganizationFacts, 'id'>): boolean =>
  can(actor.role, 'webhooks.manage') && isOwnOrganization(actor, org);

/** Registering, changing, rotating and redelivering: the same admins, while their organization is not frozen. */
export const mayManageWebhooksOf = (actor: Actor, org: Pick<OrganizationFacts, 'id'>): boolean =>
  mayViewWebhooksOf(actor, org) && mayWrite(actor);

// People and invitations ---------------------------------------------------------------

export const mayListPeople = (actor: Actor): boolean => can(actor.role, 'users.list');

/** Everyone reads themselves; reading others takes users.get. */
export function mayViewPerson(actor: Actor, person: Pick<PersonFacts, 'id'>): boolean {
  return person.id === actor.userId || can(actor.role, 'users.get');
}

/** Invite into, and manage the people of, the own organization or a direct child. */
export function mayManagePeopleOf(actor: Actor, org: Pick<OrganizationFacts, 'id' | 'parent_org_id'>): boolean {
  return can(actor.role, 'users.create') && isOwnOrDirectChild(actor, org) && mayWrite(actor);
}

/** Inviting also respects a child's choice to refuse its parent's invitations. */
export function mayInviteTo(actor: Actor, org: Pick<OrganizationFacts, 'id' | 'parent_org_id' | 'disable_parent_invites'>): boolean {
  return mayManagePeopleOf(actor, org) && (isOwnOrganization(actor, org) || !org.disable_parent_invites);
}

/** Resend, copy the link of, or revoke an invitation of the own organization or a direct child. */
export function mayManageInvitationsOf(actor: Actor, org: Pick<OrganizationFacts, 'id' | 'parent_org_id'>): boolean {
  return can(actor.role, 'invitations.manage') && isOwnOrDirectChild(actor, org) && mayWrite(actor);
}

const isSelf = (actor: Actor, person: Pick<PersonFacts, 'id'>) => !!actor.userId && person.id === actor.userId;

/** Nobody acts on a person whose role ranks above their own (an equal rank is within reach). */
export const mayActOnRankOf = (actor: Actor, person: Pick<PersonFacts, 'role'>): boolean => roleRank(person.role) <= roleRank(actor.role);

/**
 * Anyone with users.update edits themselves; editing someone else takes a manager or above,
 * within reach, and never someone of a higher rank.
 */
export function mayEditPerson(actor: Actor, person: Pick<PersonFacts, 'id' | 'role' | 'organization'>): boolean {
  if (!can(actor.role, 'users.update') || !mayWrite(actor)) return false;
  if (isSelf(actor, person)) return true;
  return roleRank(actor.role) >= ROLE_RANK.manager && isOwnOrDirectChild(actor, person.organization) && mayActOnRankOf(actor, person);
}

/** Deactivating and reactivating: never oneself, never someone of a higher rank. */
export function mayChangePersonStatus(actor: Actor, person: Pick<PersonFacts, 'id' | 'role' | 'organization'>): boolean {
  return !isSelf(actor, person) && can(actor.role, 'users.delete') && mayEditPerson(actor, person);
}

/**
 * Ending every session of a person, and resetting their second factors: an admin of the
 * person's organization or of any organization above it (the person is a member of the
 * admin's subtree), never oneself, never someone of a higher rank, never from a frozen
 * organization. Reach is everything the admin may read: the server finds the person within
 * the caller's subtree or answers 404, and the console offers the actions only on a person
 * the server let it read. The server refuses, and the console hides the actions, by this
 * one predicate.
 */
export const mayEndAccessOf = (actor: Actor, person: Pick<PersonFacts, 'id' | 'role'>): boolean =>
  !isSelf(actor, person) && can(actor.role, 'users.delete') && mayWrite(actor) && mayActOnRankOf(actor, person);

/** Changing someone's role: never one's own, within reach, never someone of a higher rank. */
export function mayChangeRoleOf(actor: Actor, person: Pick<PersonFacts, 'id' | 'role' | 'organization'>): boolean {
  return (
    !isSelf(actor, person) &&
    can(actor.role, 'users.update_role') &&
    mayWrite(actor) &&
    isOwnOrDirectChild(actor, person.organization) &&
    mayActOnRankOf(actor, person)
  );
}

/**
 * A role given by invitation or by a change must belong to the organization type of the
 * person and must not outrank the actor.
 */
export function mayGiveRole(actor: Actor, orgType: OrgType, role: string): boolean {
  return isRoleValidForOrgType(role, orgType) && mayGrantRole(actor, role);
}

// Debug --------------------------------------------------------------------------------

export const mayOpenDebug = (actor: Pick<Actor, 'role'>): boolean => can(actor.role, 'debug.view');
/** The activity log: admins, over the audit events of their organization and its subtree (the service scopes the rows). */
export const mayViewActivity = (actor: Pick<Actor, 'role'>): boolean => can(actor.role, 'audit.view');
export const mayReadOutbox = (actor: Pick<Actor, 'role'>): boolean => can(actor.role, 'debug.outbox');

// Require-a-second-factor policy ----------------------------------------------

/**
 * An organization's second-factor policy is read and set by its own admins only: a parent
 * requires a factor below it through its own policy's subtree requirement, never by editing a
 * child's. A frozen organization's admins change nothing.
 */
export const mayViewMfaPolicy = (actor: Actor, org: Pick<OrganizationFacts, 'id'>): boolean =>
  roleRank(actor.role) >= ROLE_RANK.admin && isOwnOrganization(actor, org);

export const mayManageMfaPolicy = (actor: Actor, org: Pick<OrganizationFacts, 'id'>): boolean =>
  mayViewMfaPolicy(actor, org) && mayWrite(actor);

/** Only the house requires a factor of every admin role in the tree. */
export const mayRequireMfaForAdmins = (org: Pick<OrganizationFacts, 'org_type'>): boolean => org.org_type === 'house';
