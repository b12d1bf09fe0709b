import type { ActivationStatus } from '@console/domain';
import { Badge } from '@/components/ui/badge';
import { ACTIVATION_STATUS_LABELS } from '@/lib/agents';
import { cn } from '@/lib/utils';

const CLASSES: Record<ActivationStatus, string> = {
  active: 'border-transparent bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200',
  inactive: 'border-transparent bg-secondary text-secondary-foreground',
  error: 'border-transparent bg-destructive text-white dark:bg-destructive/60',
};

/** What an agent's runtime last reported: Active, Inactive or Error. */
export function ActivationStatusBadge({ status, className }: { status: ActivationStatus; className?: string }) {
  return (
    <Badge variant="outline" className={cn(CLASSES[status], className)} data-status={status}>
      {ACTIVATION_STATUS_LABELS[status]}
    </Badge>
  );
}
