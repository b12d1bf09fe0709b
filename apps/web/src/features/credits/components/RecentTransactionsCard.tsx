import { MESSAGES, PAGING } from '@console/domain';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { PATHS } from '@/lib/paths';
import { cn } from '@/lib/utils';
import { useRecentTransactions } from '../api/get-recent-transactions';
import { describeEntry } from '../entry-types';
import { formatCredits, formatLedgerDate, isNegative } from '../format';
import { EntryTypeBadge } from './EntryTypeBadge';

/** The newest credit transactions of an organization: 5 fetched, 3 shown, no filters (spec 2 section 2). */
export function RecentTransactionsCard({ organizationId }: { organizationId: string }) {
  const recent = useRecentTransactions(organizationId);
  const entries = recent.data?.entries.slice(0, PAGING.recentTransactionsShown) ?? [];

  return (
    <Card>
      <CardHeader>
        <CardTitle>{MESSAGES.creditPages.recentTitle}</CardTitle>
      </CardHeader>
      <CardContent>
        {recent.isPending ? (
          <div role="status" className="space-y-3">
            <span className="sr-only">Loading</span>
            {Array.from({ length: PAGING.recentTransactionsShown }, (_, index) => (
              <Skeleton key={index} className="h-10 w-full" />
            ))}
          </div>
        ) : recent.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {MESSAGES.credits.loadFailed}
          </p>
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
                  <p className="truncate text-sm">{describeEntry(entry)}</p>
                  <p className="text-xs text-muted-foreground">{formatLedgerDate(entry.created_at)}</p>
                </div>
                <span
                  className={cn(
                    'text-sm font-medium tabular-nums',
                    isNegative(entry.amount) ? 'text-red-600 dark:text-red-400' : 'text-green-700 dark:text-green-400',
                  )}
                >
                  {formatCredits(entry.amount)}
                </span>
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
