import type { PriceChange } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { pricingQueries } from '@/api/pricing';
import { ResponsiveDataTable, type Column } from '@/components/data-table';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { StackedCard } from '@/components/stacked-card';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatUnits } from '@/lib/agents';
import { formatDateTime } from '@/lib/dates';
import { MESSAGES } from '../wording';

const p = MESSAGES.pricingPages;

const priceOf = (change: PriceChange) =>
  change.price !== null ? `${formatUnits(change.price)} credits` : change.child ? p.historyBookAgain : p.passThrough;

/** The agent, and the child when the change was a price for one child. */
const agentOf = (change: PriceChange) =>
  change.child ? (
    <>
      <div>{change.agent_type.name}</div>
      <div className="text-xs text-muted-foreground">{p.historyForChild(change.child.name)}</div>
    </>
  ) : (
    change.agent_type.name
  );

const COLUMNS: Column<PriceChange>[] = [
  { head: p.agent, className: 'whitespace-normal', cell: agentOf },
  { head: p.newPrice, className: 'tabular-nums', cell: priceOf },
  { head: p.when, cell: (change) => formatDateTime(change.effective_from) },
  { head: p.who, className: 'whitespace-normal', cell: (change) => change.changed_by ?? p.someone },
];

/** The book's changes, newest first, a page at a time. */
export function PriceHistoryCard({ organizationId }: { organizationId: string }) {
  const [page, setPage] = useState(1);
  const history = useQuery(pricingQueries.history(organizationId, page));
  const pages = history.data ? Math.max(1, Math.ceil(history.data.total / history.data.page_size)) : 1;

  let body;
  if (history.isPending) body = <LoadingRows />;
  else if (history.isError) body = <QueryError error={history.error} title={p.historyLoadFailed} onRetry={history.refetch} />;
  else if (history.data.items.length === 0) body = <p className="py-6 text-center text-sm text-muted-foreground">{p.historyEmpty}</p>;
  else
    body = (
      <div className="space-y-4">
        <ResponsiveDataTable
          label={p.historyLabel}
          columns={COLUMNS}
          rows={history.data.items}
          card={(change) => (
            <StackedCard
              title={agentOf(change)}
              fields={[
                { label: p.newPrice, value: priceOf(change) },
                { label: p.when, value: formatDateTime(change.effective_from) },
                { label: p.who, value: change.changed_by ?? p.someone },
              ]}
            />
          )}
        />
        {pages > 1 && (
          <nav aria-label={p.historyLabel} className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-sm text-muted-foreground">{p.pageOf(page, pages)}</p>
            <div className="flex gap-2">
              <Button variant="outline" size="sm" disabled={history.isFetching || page <= 1} onClick={() => setPage(page - 1)}>
                {p.previousPage}
              </Button>
              <Button variant="outline" size="sm" disabled={history.isFetching || page >= pages} onClick={() => setPage(page + 1)}>
                {p.nextPage}
              </Button>
            </div>
          </nav>
        )}
      </div>
    );

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">{p.historyTitle}</CardTitle>
        <CardDescription>{p.historyDescription}</CardDescription>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
