import { can, type NormalizedClaims, type Organization } from '@console/domain';

type Caller = Pick<NormalizedClaims, 'role' | 'org_id'> | null;
type Target = Pick<Organization, 'id' | 'parent_org_id' | 'status'>;

/** The server's scope rules, mirrored to decide which actions the pages offer (the server still decides). */
export function isDirectChild(caller: Caller, organization: Target): boolean {
  return !!caller?.org_id && organization.parent_org_id === caller.org_id;
}

/** Update: the user's own organization or a direct child (spec 1 section 5). */
export function mayEdit(caller: Caller, organization: Target): boolean {
  if (!caller?.org_id || !can(caller.role, 'organizations.update')) return false;
  return organization.id === caller.org_id || isDirectChild(caller, organization);
}

/** Delete: admins of the parent only. */
export function mayDelete(caller: Caller, organization: Target): boolean {
  return can(caller?.role, 'organizations.delete') && isDirectChild(caller, organization);
}

/** Allocate credits: to an active direct child. */
export function mayAllocate(caller: Caller, organization: Target): boolean {
  return can(caller?.role, 'organizations.allocate_credits') && isDirectChild(caller, organization) && organization.status === 'active';
}

/** Manage Billing: the agent limit or credit allocation permission (spec 2 section 6). */
export function mayManageBilling(caller: Caller): boolean {
  return can(caller?.role, 'organizations.manage_activated_agent_limit') || can(caller?.role, 'organizations.allocate_credits');
}
