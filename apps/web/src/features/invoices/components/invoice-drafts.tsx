import type { BillingDetails, InvoiceDraft } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { invoiceQueries } from '@/api/invoices';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PATHS } from '@/lib/paths';
import { MESSAGES } from '../wording';
import { formatMoney, monthLabel, plainRate } from '../format';
import { InvoiceLinesTable } from './invoice-lines-table';
import { InvoiceTotals } from './invoice-totals';
import { IssueDraftButton } from './issue-draft-button';

const w = MESSAGES.invoicePages;

/** "VAT (20%)" from the seller's details; plain "Tax" before they are set. */
const taxLabelOf = (details: BillingDetails | null | undefined) =>
  details ? w.totals.tax(details.tax_label, plainRate(details.tax_rate)) : undefined;

/** One child's draft: its lines and totals, the credit-note lines beside them, and Issue now where the viewer may. */
function DraftCard({
  organizationId,
  draft,
  currency,
  details,
  nextNumber,
  mayIssue,
}: {
  organizationId: string;
  draft: InvoiceDraft;
  currency: string;
  details: BillingDetails | null | undefined;
  nextNumber: string | null;
  mayIssue: boolean;
}) {
  const child = draft.buyer.name;
  return (
    <li className="min-w-0">
      <Card className="min-w-0 gap-4">
        <CardHeader className="flex flex-wrap items-start justify-between gap-3">
          <div className="grid min-w-0 gap-1.5">
            <CardTitle>{child}</CardTitle>
            <CardDescription>{w.draftOf(formatMoney(draft.total, currency), monthLabel(draft.period))}</CardDescription>
          </div>
          {mayIssue && <IssueDraftButton organizationId={organizationId} draft={draft} currency={currency} nextNumber={nextNumber} />}
        </CardHeader>
        <CardContent className="space-y-4">
          {draft.lines.length > 0 && (
            <>
              <InvoiceLinesTable lines={draft.lines} currency={currency} label={w.linesLabel(child)} />
              <InvoiceTotals totals={draft} currency={currency} taxLabel={taxLabelOf(details)} />
            </>
          )}
          {draft.credit_lines.length > 0 && (
            <div className="space-y-3 border-t pt-4">
              <div>
                <h3 className="font-medium">{w.creditLinesTitle}</h3>
                <p className="text-sm text-muted-foreground">{w.creditLinesBody}</p>
              </div>
              <InvoiceLinesTable lines={draft.credit_lines} currency={currency} label={w.creditLinesLabel(child)} />
              <p className="text-right text-sm">
                <span className="text-muted-foreground">{w.creditTotal}: </span>
                <span className="font-semibold tabular-nums">{formatMoney(draft.credit_total, currency)}</span>
              </p>
            </div>
          )}
        </CardContent>
      </Card>
    </li>
  );
}

/**
 * The Drafts tab: each child's next invoice as it would be issued now. Before the seller's
 * billing details are set nothing can be issued, and the tab says where to set them.
 */
export function InvoiceDrafts({ organizationId, mayIssue }: { organizationId: string; mayIssue: boolean }) {
  const drafts = useQuery(invoiceQueries.drafts(organizationId));
  const details = useQuery(invoiceQueries.billingDetails(organizationId));
  if (drafts.isPending) return <LoadingRows rows={['h-40 w-full', 'h-40 w-full']} />;
  if (drafts.isError) return <QueryError error={drafts.error} title={w.loadFailed} onRetry={drafts.refetch} />;
  const { ready, currency, drafts: list } = drafts.data;
  return (
    <div className="space-y-4">
      <p className="text-sm text-muted-foreground">{w.draftsBody}</p>
      {!ready && (
        <Alert>
          <AlertTitle>{w.draftsNotReady}</AlertTitle>
          <AlertDescription>
            <p>{MESSAGES.invoices.detailsMissing}</p>
            {mayIssue && (
              <Button asChild size="sm" variant="outline" className="w-fit">
                <Link to={PATHS.billingDetails}>{w.setDetails}</Link>
              </Button>
            )}
          </AlertDescription>
        </Alert>
      )}
      {list.length === 0 ? (
        <p className="rounded-md border border-dashed p-6 text-center text-sm text-muted-foreground">{w.draftsEmpty}</p>
      ) : (
        <ul className="grid min-w-0 gap-4" aria-label={w.draftsTitle}>
          {list.map((draft) => (
            <DraftCard
              key={draft.buyer.id}
              organizationId={organizationId}
              draft={draft}
              currency={currency ?? ''}
              details={details.data?.details}
              nextNumber={details.data?.next_number ?? null}
              mayIssue={mayIssue && ready}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
