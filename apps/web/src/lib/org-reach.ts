import { canHaveChildren, mayListOrganizations, type Actor } from '@console/domain';

/**
 * Whether the viewer is offered the organization list (the Organizations page, its links and
 * pickers): the server lets them list (`mayListOrganizations`) and their organization can have
 * descendants to list, which a tenant never has.
 */
export function showsOrganizationList(viewer: Actor | null): viewer is Actor {
  return !!viewer && mayListOrganizations(viewer) && canHaveChildren(viewer.organization.org_type);
}
