import type { PaidChange } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { pricingQueries } from '@/api/pricing';
import { ResponsiveDataTable, type Column } from '@/components/data-table';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { StackedCard } from '@/components/stacked-card';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatUnits } from '@/lib/agents';
import { formatDateTime } from '@/lib/dates';
import { MESSAGES } from '../wording';

const p = MESSAGES.pricingPages;

/** A change as a row: one a type and a moment. */
type PaidRow = PaidChange & { id: string };

const credits = (price: string) => `${formatUnits(price)} credits`;
const setBy = (change: PaidChange) => change.set_by?.name ?? p.paidByCatalog;

const COLUMNS: Column<PaidRow>[] = [
  { head: p.agent, className: 'whitespace-normal', cell: (change) => change.agent_type.name },
  { head: p.paidWas, className: 'tabular-nums', cell: (change) => credits(change.before) },
  { head: p.paidNow, className: 'tabular-nums', cell: (change) => credits(change.after) },
  { head: p.paidFrom, cell: (change) => formatDateTime(change.effective_from) },
  { head: p.paidSetBy, className: 'whitespace-normal', cell: setBy },
];

/** What the seller pays: each change of its own price, made above it, newest first. */
export function PaidHistoryCard({ organizationId }: { organizationId: string }) {
  const paid = useQuery(pricingQueries.paid(organizationId));
  let body;
  if (paid.isPending) body = <LoadingRows />;
  else if (paid.isError) body = <QueryError error={paid.error} title={p.paidLoadFailed} onRetry={paid.refetch} />;
  else if (paid.data.items.length === 0) body = <p className="py-6 text-center text-sm text-muted-foreground">{p.paidEmpty}</p>;
  else
    body = (
      <ResponsiveDataTable
        label={p.paidLabel}
        columns={COLUMNS}
        rows={paid.data.items.map((change) => ({ ...change, id: `${change.agent_type.id}@${change.effective_from}` }))}
        card={(change) => (
          <StackedCard
            title={change.agent_type.name}
            fields={[
              { label: p.paidWas, value: credits(change.before) },
              { label: p.paidNow, value: credits(change.after) },
              { label: p.paidFrom, value: formatDateTime(change.effective_from) },
              { label: p.paidSetBy, value: setBy(change) },
            ]}
          />
        )}
      />
    );
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">{p.paidTitle}</CardTitle>
        <CardDescription>{p.paidDescription}</CardDescription>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
