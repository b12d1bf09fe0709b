import type { UserStatus } from '@console/domain';
import { Badge } from '@/components/ui/badge';
import { STATUS_BADGE } from '../format';

export function UserStatusBadge({ status }: { status: UserStatus }) {
  return (
    <Badge variant={STATUS_BADGE[status]} className="capitalize">
      {status}
    </Badge>
  );
}
