import type { OrgStatus } from '@console/domain';
import { Badge } from '@/components/ui/badge';

const VARIANT = { active: 'default', inactive: 'secondary', suspended: 'destructive' } as const;

/** Status names as the filters and the edit form offer them. */
export const ORG_STATUS_LABELS: Record<OrgStatus, string> = {
  active: 'Active',
  inactive: 'Inactive',
  suspended: 'Suspended',
};

export function OrgStatusBadge({ status }: { status: OrgStatus }) {
  return (
    <Badge variant={VARIANT[status] ?? 'outline'} className="capitalize">
      {status}
    </Badge>
  );
}
