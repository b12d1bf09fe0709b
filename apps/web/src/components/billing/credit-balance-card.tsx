import { maySetLowBalanceThreshold } from '@console/domain';
import { BellRing, Coins } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Freshness } from '@/components/freshness';
import { IconCardTitle } from '@/components/icon-card-title';
import { LowBalanceAlert } from '@/components/credits/low-balance-alert';
import { formatCredits } from '@/lib/credit-format';
import { useViewer } from '@/lib/use-viewer';
import { BalanceParts } from './balance-parts';
import { LowBalanceThresholdDialog } from './low-balance-threshold-dialog';
import { MESSAGES } from '@/lib/wording';

const m = MESSAGES.billingPages;
const t = MESSAGES.thresholdPages;

interface CreditBalanceCardProps {
  organizationId: string;
  balance: string;
  /** The balance below which the organization's admins are alerted. */
  threshold: string;
  /** The allocation page, when the user may allocate from here. */
  allocateHref?: string | null;
  /** What Allocate Credits does (by default: credits leave this organization for a child). */
  allocateHint?: string;
  /** How old the balance is, with a refresh button, where the card's query refreshes on its own. */
  freshness?: { updatedAt: number; onRefresh(): void; refreshing: boolean };
}

/**
 * The credit balance, with its parts when some credits carry terms (the open credits, the
 * soonest expiry), the low-balance warning below the organization's own threshold, the
 * threshold (its own admins change it), and a link to the allocation page when the user may
 * allocate from here.
 */
export function CreditBalanceCard({
  organizationId,
  balance,
  threshold,
  allocateHref,
  allocateHint = m.allocateHint,
  freshness,
}: CreditBalanceCardProps) {
  const viewer = useViewer();
  const mayChangeThreshold = !!viewer && maySetLowBalanceThreshold(viewer, { id: organizationId });
  return (
    <Card className="gap-4">
      <CardHeader>
        <IconCardTitle icon={Coins}>{m.creditBalance}</IconCardTitle>
        {allocateHref && <CardDescription>{allocateHint}</CardDescription>}
        {freshness && <Freshness {...freshness} />}
      </CardHeader>
      <CardContent className="space-y-3">
        <p className="text-2xl font-semibold tabular-nums break-words" data-testid="credit-balance">
          {formatCredits(balance)}
        </p>
        <BalanceParts organizationId={organizationId} />
        <LowBalanceAlert balance={balance} threshold={threshold} />
        <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
          <p className="flex items-start gap-2 text-muted-foreground" data-testid="low-balance-threshold">
            <BellRing className="mt-0.5 size-4 shrink-0" aria-hidden />
            <span>
              <span className="font-medium text-foreground">{t.title}:</span> {t.body(formatCredits(threshold))}
            </span>
          </p>
          {mayChangeThreshold && <LowBalanceThresholdDialog organizationId={organizationId} threshold={threshold} />}
        </div>
        {allocateHref && (
          <Button asChild size="sm">
            <Link to={allocateHref}>{m.allocateCredits}</Link>
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
