import { can, type NormalizedClaims, type OrgType } from '@console/domain';
import { useOrganization } from '@/features/organizations/api/get-organization';
import { useAuth } from '@/lib/auth';

export interface TargetOrganization {
  id: string;
  name: string | null;
  orgType: OrgType | null;
  parentId: string | null;
  disableParentInvites: boolean;
  /** The signed-in user's own organization. */
  own: boolean;
}

/**
 * The organization a users screen works on: the one in `organization_id`, else the user's
 * own (read from the token, no call needed).
 */
export function useTargetOrganization(organizationId: string | null | undefined) {
  const { claims } = useAuth();
  const own = !organizationId || organizationId === claims?.org_id;
  const query = useOrganization(own ? undefined : (organizationId ?? undefined));
  if (own) {
    const organization: TargetOrganization | null = claims?.org_id
      ? {
          id: claims.org_id,
          name: claims.organization_name,
          orgType: claims.organization_type,
          parentId: null,
          disableParentInvites: false,
          own: true,
        }
      : null;
    return { organization, isPending: false, error: null };
  }
  const data = query.data;
  const organization: TargetOrganization | null = data
    ? {
        id: data.id,
        name: data.name,
        orgType: data.org_type,
        parentId: data.parent_org_id,
        disableParentInvites: data.disable_parent_invites,
        own: false,
      }
    : null;
  return { organization, isPending: query.isPending, error: query.error };
}

/**
 * Admins invite into their own organization, or into a direct child that accepts
 * invitations from its parent (the server enforces the same).
 */
export function canInviteInto(claims: NormalizedClaims | null, organization: TargetOrganization | null): boolean {
  if (!claims || !organization || !can(claims.role, 'invitations.manage')) return false;
  if (organization.own) return true;
  return organization.parentId === claims.org_id && !organization.disableParentInvites;
}

/** /users/create for an organization, with its name when known. */
export function inviteHref(organization: TargetOrganization): string {
  const params = new URLSearchParams({ organization_id: organization.id });
  if (organization.name) params.set('organization_name', organization.name);
  return `/users/create?${params}`;
}
