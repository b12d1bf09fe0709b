import type { UserStatus } from '@console/domain';
import { Badge } from '@/components/ui/badge';

const VARIANT: Record<UserStatus, 'default' | 'secondary' | 'outline' | 'destructive'> = {
  active: 'default',
  inactive: 'secondary',
  pending: 'outline',
  suspended: 'destructive',
};

export function UserStatusBadge({ status }: { status: UserStatus }) {
  return (
    <Badge variant={VARIANT[status]} className="capitalize">
      {status}
    </Badge>
  );
}
