import { mayReadOrganization, type PersonFacts, type UserProfile } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { organizationQueries } from '@/api/organizations';
import { useViewer } from '@/lib/use-viewer';

/**
 * A user as the policy predicates take them. The parent of their organization matters only
 * when it is not the viewer's own (is it a direct child?), and only then is it read, when the
 * viewer may read it (else the server would refuse); a read that fails or may not be made
 * leaves it unknown, which allows nothing there.
 */
export function usePerson(user: UserProfile | undefined): { person: PersonFacts | null; isPending: boolean } {
  const viewer = useViewer();
  const elsewhere = !!user && !!viewer && user.id !== viewer.userId && user.organization_id !== viewer.organization.id;
  const readable = elsewhere && mayReadOrganization(viewer, { id: user.organization_id });
  const organization = useQuery({ ...organizationQueries.detail(user?.organization_id ?? ''), enabled: readable });
  if (!user || (readable && organization.isPending)) return { person: null, isPending: true };
  const parent = readable ? (organization.data?.parent_org_id ?? null) : null;
  return { person: { id: user.id, role: user.role, organization: { id: user.organization_id, parent_org_id: parent } }, isPending: false };
}
