import { TriangleAlert } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';

/**
 * Spec 1 section 2: an agency admin with no children sees a warning. Agency admins are
 * expected to see the tenants of their agency (spec 2 section 6), so an empty list is
 * worth a word on what to do.
 */
export function AgencyNoChildrenWarning({ role, childCount }: { role: string | undefined; childCount: number | undefined }) {
  if (role !== 'agency_admin' || childCount !== 0) return null;
  return (
    <Alert className="border-amber-500/50 [&>svg]:text-amber-600">
      <TriangleAlert aria-hidden />
      <AlertTitle>No child organizations</AlertTitle>
      <AlertDescription>
        Your agency has no tenants yet. Create one with New Organization; if tenants you expect are missing,
        contact the administrator of your super agency.
      </AlertDescription>
    </Alert>
  );
}
