import { mayViewBilling } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { Hourglass } from 'lucide-react';
import { grantQueries } from '@/api/grants';
import { formatCredits, formatDecimal } from '@/lib/credit-format';
import { formatDate } from '@/lib/dates';
import { useViewer } from '@/lib/use-viewer';
import { MESSAGES } from '@/lib/wording';

const w = MESSAGES.grantPages.parts;

/**
 * Under a balance, its parts when some credits carry terms: the open credits (when they are
 * not the whole balance) and the soonest expiry with what it takes. Nothing while they load or
 * when they cannot be read: the balance above stands on its own.
 */
export function BalanceParts({ organizationId }: { organizationId: string }) {
  const viewer = useViewer();
  const grants = useQuery({ ...grantQueries.list(organizationId), enabled: !!viewer && mayViewBilling(viewer) && !!organizationId });
  if (!grants.data) return null;
  const { parts } = grants.data;
  const showOpen = parts.open !== parts.total;
  if (!showOpen && !parts.soonest_expiry) return null;
  return (
    <div className="grid gap-1 text-sm" data-testid="balance-parts">
      {showOpen && (
        <p>
          <span className="text-muted-foreground">{w.open}:</span>{' '}
          <span className="font-medium tabular-nums">{formatCredits(parts.open)}</span>
        </p>
      )}
      {parts.soonest_expiry && (
        <p className="flex items-start gap-2 font-medium text-amber-700 dark:text-amber-400">
          <Hourglass className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>{w.soonestExpiry(formatDecimal(parts.soonest_expiry.amount), formatDate(parts.soonest_expiry.at))}</span>
        </p>
      )}
    </div>
  );
}
