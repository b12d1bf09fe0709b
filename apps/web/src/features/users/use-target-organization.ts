import type { OrganizationFacts, OrgType } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { organizationQueries } from '@/api/organizations';
import { useAuth } from '@/lib/auth';

/** The organization a users screen works on, with what the policy predicates need to know of it. */
export interface TargetOrganization extends OrganizationFacts {
  name: string | null;
  org_type?: OrgType;
}

/**
 * The organization a users screen works on: the one in `organization_id`, else the user's
 * own, read from the session without a call (its parent is not known there, and decides
 * nothing for one's own organization).
 */
export function useTargetOrganization(organizationId: string | null | undefined) {
  const { claims } = useAuth();
  const ownId = claims?.org_id ?? null;
  const own = !organizationId || organizationId === ownId;
  const query = useQuery({ ...organizationQueries.detail(organizationId ?? ''), enabled: !own });
  if (!own) return { organization: query.data ?? null, isPending: query.isPending, error: query.error, refetch: query.refetch };
  const organization: TargetOrganization | null = ownId
    ? { id: ownId, name: claims?.organization_name ?? null, org_type: claims?.organization_type ?? undefined, parent_org_id: null }
    : null;
  return { organization, isPending: false, error: null, refetch: undefined };
}
