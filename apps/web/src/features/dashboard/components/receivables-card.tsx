import type { ReceivableRow } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { Wallet } from 'lucide-react';
import { Link } from 'react-router';
import { invoiceQueries } from '@/api/invoices';
import { ResponsiveDataTable } from '@/components/data-table';
import { IconCardTitle } from '@/components/icon-card-title';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { StackedCard } from '@/components/stacked-card';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { formatDecimal } from '@/lib/credit-format';
import { childInvoicesHref, PATHS } from '@/lib/paths';
import { MESSAGES } from '../wording';

const r = MESSAGES.invoicePages.receivables;

type Row = Omit<ReceivableRow, 'organization'> & { id: string; organization: ReceivableRow['organization'] | null };

/**
 * Receivables (a seller's own people): what each child still owes on the seller's invoices,
 * aged 0–30, 31–60 and 61+ days from the invoice's date, with its overdue invoices and the way
 * to its invoices; the last row adds them up.
 */
export function ReceivablesCard({ organizationId }: { organizationId: string }) {
  const receivables = useQuery(invoiceQueries.receivables(organizationId));
  let body;
  if (receivables.isPending) body = <LoadingRows rows={3} />;
  else if (receivables.isError) body = <QueryError error={receivables.error} title={r.loadFailed} onRetry={receivables.refetch} />;
  else if (receivables.data.children.length === 0) body = <p className="text-sm text-muted-foreground">{r.empty}</p>;
  else {
    const { children, totals, currency } = receivables.data;
    const money = (amount: string) => (currency ? `${formatDecimal(amount)} ${currency}` : formatDecimal(amount));
    const rows: Row[] = [...children.map((row) => ({ ...row, id: row.organization.id })), { ...totals, id: 'totals', organization: null }];
    const name = (row: Row) =>
      row.organization ? (
        <Link
          to={childInvoicesHref(row.organization.id)}
          aria-label={r.invoicesOf(row.organization.name)}
          className="font-medium underline-offset-4 hover:underline"
        >
          {row.organization.name}
        </Link>
      ) : (
        <span className="font-semibold">{r.totalsRow}</span>
      );
    const overdue = (row: Row) =>
      row.overdue > 0 ? <span className="font-medium text-destructive">{r.overdueCount(row.overdue)}</span> : '0';
    const amount = (value: string) => <span className="tabular-nums">{money(value)}</span>;
    const right = { headClassName: 'text-right', className: 'text-right whitespace-nowrap' };
    body = (
      <ResponsiveDataTable
        label={r.label}
        rows={rows}
        rowClassName={(row) => (row.organization ? undefined : 'bg-muted/40 font-semibold')}
        columns={[
          { head: r.child, className: 'max-w-56 whitespace-normal wrap-anywhere', cell: name },
          { head: r.days0to30, ...right, cell: (row) => amount(row.days_0_30) },
          { head: r.days31to60, ...right, cell: (row) => amount(row.days_31_60) },
          { head: r.days61plus, ...right, cell: (row) => amount(row.days_61_plus) },
          { head: r.total, ...right, cell: (row) => amount(row.total) },
          { head: r.overdue, ...right, cell: overdue },
        ]}
        card={(row) => (
          <StackedCard
            title={name(row)}
            className={row.organization ? undefined : 'bg-muted/40'}
            fields={[
              { label: r.days0to30, value: amount(row.days_0_30) },
              { label: r.days31to60, value: amount(row.days_31_60) },
              { label: r.days61plus, value: amount(row.days_61_plus) },
              { label: r.total, value: amount(row.total) },
              { label: r.overdue, value: overdue(row) },
            ]}
          />
        )}
      />
    );
  }
  return (
    <Card className="min-w-0 gap-4">
      <CardHeader>
        <IconCardTitle icon={Wallet}>{r.title}</IconCardTitle>
        <CardDescription>{r.description}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {body}
        <Link to={PATHS.invoices} className="inline-block text-sm font-medium underline underline-offset-4">
          {r.allInvoices}
        </Link>
      </CardContent>
    </Card>
  );
}
