import { useQuery } from '@tanstack/react-query';
import { HandCoins, TriangleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { pricingQueries } from '@/api/pricing';
import { IconCardTitle } from '@/components/icon-card-title';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { formatCredits, formatDecimal } from '@/lib/credit-format';
import { formatMonth } from '@/lib/dates';
import { ledgerOfTypeHref, PATHS } from '@/lib/paths';
import { MESSAGES } from '../wording';
import { Metric } from './metric';

const p = MESSAGES.pricingPages;

/** A small table of amounts by name, with its column headers. */
function AmountsTable({
  caption,
  nameHead,
  rows,
}: {
  caption: string;
  nameHead: string;
  rows: { key: string; name: string; amount: string }[];
}) {
  return (
    <table className="w-full text-sm">
      <caption className="pb-1 text-left font-medium">{caption}</caption>
      <thead>
        <tr className="text-left text-muted-foreground">
          <th scope="col" className="py-1 font-normal">
            {nameHead}
          </th>
          <th scope="col" className="py-1 text-right font-normal">
            {p.amountColumn}
          </th>
        </tr>
      </thead>
      <tbody className="divide-y">
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row" className="py-1.5 text-left font-normal wrap-anywhere">
              {row.name}
            </th>
            <td className="py-1.5 pl-2 text-right whitespace-nowrap tabular-nums">{formatDecimal(row.amount)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The agent types whose book price a rise of what the seller pays has put below its own price
 * (its children pay its own price and it earns nothing on them), said where it looks at its
 * earnings, with the way to set new prices. Nothing while the book loads or fails to.
 */
function BelowYourPrice({ organizationId }: { organizationId: string }) {
  const book = useQuery(pricingQueries.book(organizationId));
  const floored = book.data?.items.filter((item) => item.floored) ?? [];
  if (floored.length === 0) return null;
  return (
    <Alert className="border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
      <TriangleAlert aria-hidden />
      <AlertDescription className="text-inherit">
        <p>{p.earnedBelowPrice(floored.map((item) => item.agent_type.name))}</p>
        <Link to={PATHS.pricing} className="font-medium underline underline-offset-4">
          {p.earnedSetPrice}
        </Link>
      </AlertDescription>
    </Alert>
  );
}

/**
 * Earned this month: a seller's margin on its children's usage this UTC month, in total, by
 * child and by agent, with the way to those entries in the ledger, and a note of the prices
 * below what it pays. Live, like the balance.
 */
export function EarningsCard({ organizationId }: { organizationId: string }) {
  const earnings = useQuery(pricingQueries.earnings(organizationId));
  let body;
  if (earnings.isPending) body = <LoadingRows rows={2} />;
  else if (earnings.isError) body = <QueryError error={earnings.error} title={p.earnedLoadFailed} onRetry={earnings.refetch} />;
  else {
    const { total, by_child: byChild, by_agent: byAgent } = earnings.data;
    body = (
      <div className="space-y-4">
        <BelowYourPrice organizationId={organizationId} />
        <dl>
          <Metric label={p.earnedTitle} value={formatCredits(total)} testId="earned-total" />
        </dl>
        {byChild.length === 0 && byAgent.length === 0 ? (
          <p className="text-sm text-muted-foreground">{p.earnedNothing}</p>
        ) : (
          <div className="grid gap-4 sm:grid-cols-2">
            <AmountsTable
              caption={p.byChild}
              nameHead={p.childColumn}
              rows={byChild.map((row) => ({ key: row.organization_id, name: row.name, amount: row.amount }))}
            />
            <AmountsTable
              caption={p.byAgent}
              nameHead={p.agentColumn}
              rows={byAgent.map((row) => ({ key: row.agent_type_id, name: row.name, amount: row.amount }))}
            />
          </div>
        )}
        <Link to={ledgerOfTypeHref('earning')} className="inline-block text-sm font-medium underline underline-offset-4">
          {p.viewInLedger}
        </Link>
      </div>
    );
  }
  return (
    <Card className="gap-4">
      <CardHeader>
        <IconCardTitle icon={HandCoins}>{p.earnedTitle}</IconCardTitle>
        {earnings.data && <CardDescription>{p.earnedDescription(formatMonth(earnings.data.month))}</CardDescription>}
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
