import { PAGING } from '@console/domain';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { useQuery } from '@tanstack/react-query';
import { creditQueries } from '@/api/credits';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { amountClass, formatCredits } from '@/lib/credit-format';
import { formatDateTime } from '@/lib/dates';
import { PATHS } from '@/lib/paths';
import { cn } from '@/lib/utils';
import { EntryTypeBadge } from './entry-type-badge';
import { MESSAGES } from '@/lib/wording';

/** The newest credit transactions of an organization: PAGING.recentTransactionsFetch fetched, PAGING.recentTransactionsShown shown, no filters. */
export function RecentTransactionsCard({ organizationId }: { organizationId: string }) {
  const recent = useQuery({ ...creditQueries.recent(organizationId), enabled: !!organizationId });
  const entries = recent.data?.entries.slice(0, PAGING.recentTransactionsShown) ?? [];

  return (
    <Card>
      <CardHeader>
        <CardTitle>{MESSAGES.creditPages.recentTitle}</CardTitle>
      </CardHeader>
      <CardContent>
        {recent.isPending ? (
          <LoadingRows rows={PAGING.recentTransactionsShown} />
        ) : recent.isError ? (
          <QueryError error={recent.error} title={MESSAGES.credits.loadFailed} onRetry={recent.refetch} />
        ) : entries.length === 0 ? (
          <div className="space-y-1 text-sm">
            <p className="font-medium">{MESSAGES.credits.emptyTitle}</p>
            <p className="text-muted-foreground">{MESSAGES.credits.emptyBody}</p>
          </div>
        ) : (
          <ul className="divide-y" aria-label={MESSAGES.creditPages.recentTitle}>
            {entries.map((entry) => (
              <li key={entry.id} className="flex flex-wrap items-start justify-between gap-2 py-3 first:pt-0 last:pb-0">
                <div className="min-w-0 space-y-1">
                  <EntryTypeBadge type={entry.entry_type} />
                  <p className="truncate text-sm">{entry.description}</p>
                  <p className="text-xs text-muted-foreground">{formatDateTime(entry.created_at)}</p>
                </div>
                <span className={cn('text-sm font-medium tabular-nums', amountClass(entry.amount))}>{formatCredits(entry.amount)}</span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <CardFooter>
        <Button asChild variant="outline" size="sm">
          <Link to={PATHS.creditLedger}>{MESSAGES.creditPages.viewFullLedger}</Link>
        </Button>
      </CardFooter>
    </Card>
  );
}
