import type { ActivationStatus } from '@console/domain';
import { Badge } from '@/components/ui/badge';
import { ACTIVATION_STATUS_LABELS, AWAITING_FIRST_REPORT, awaitingFirstReport } from '@/lib/agents';
import { cn } from '@/lib/utils';

const CLASSES: Record<ActivationStatus, string> = {
  active: 'border-transparent bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200',
  inactive: 'border-transparent bg-secondary text-secondary-foreground',
  error: 'border-transparent bg-destructive text-white dark:bg-destructive/60',
};

/**
 * What an agent's runtime last reported: Active, Inactive or Error; "Awaiting first report"
 * while it has reported nothing, as the stored status is then only a default.
 */
export function ActivationStatusBadge({
  activation,
  className,
}: {
  activation: { status: ActivationStatus; last_active_at: string | null };
  className?: string;
}) {
  if (awaitingFirstReport(activation)) {
    return (
      <Badge variant="outline" className={className} data-status="awaiting">
        {AWAITING_FIRST_REPORT}
      </Badge>
    );
  }
  const { status } = activation;
  return (
    <Badge variant="outline" className={cn(CLASSES[status], className)} data-status={status}>
      {ACTIVATION_STATUS_LABELS[status]}
    </Badge>
  );
}
