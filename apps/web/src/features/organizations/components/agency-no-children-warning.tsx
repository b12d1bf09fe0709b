import { mayCreateChildOrganization, type Actor } from '@console/domain';
import { TriangleAlert } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';

/**
 * An agency with no tenants yet, seen by someone who may create one: a word on what to do,
 * since an agency's people expect to see the tenants of their agency.
 */
export function AgencyNoChildrenWarning({ viewer, childCount }: { viewer: Actor | null; childCount: number | undefined }) {
  if (!viewer || viewer.organization.org_type !== 'agency' || !mayCreateChildOrganization(viewer) || childCount !== 0) return null;
  return (
    <Alert className="border-amber-500/50 [&>svg]:text-amber-600">
      <TriangleAlert aria-hidden />
      <AlertTitle>No child organizations</AlertTitle>
      <AlertDescription>
        Your agency has no tenants yet. Create one with New Organization; if tenants you expect are missing, contact the administrator of
        your super agency.
      </AlertDescription>
    </Alert>
  );
}
