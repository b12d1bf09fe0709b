import { type Dashboard, type EntryType } from '@console/domain';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatCredits, formatDecimal } from '@/lib/credit-format';
import { Metric } from './metric';
import { MESSAGES } from '../wording';

const m = MESSAGES.dashboardPages;

const ENTRY_LABELS: Record<EntryType, string> = {
  initial_balance: 'Initial balance',
  allocation_sent: 'Allocations sent',
  allocation_received: 'Allocations received',
  consumption: 'Consumption',
  refund: 'Refunds',
  adjustment_increase: 'Adjustments (increase)',
  adjustment_decrease: 'Adjustments (decrease)',
  earning: 'Earnings',
  reversal_sent: 'Reversals sent',
  reversal_received: 'Reversals received',
  expiry: 'Expired credits',
  expiry_returned: 'Expired credits returned',
};

/** There is no revenue data: the card shows the credit flows that exist, and says so. */
export function RevenueOverviewCard({ data }: { data: Dashboard }) {
  const { credits } = data;
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle className="text-base">{m.revenueOverview}</CardTitle>
        <CardDescription>{m.revenueNote}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <dl className="grid gap-4 sm:grid-cols-2">
          <Metric
            label="Credits received"
            value={formatCredits(credits.received)}
            hint="Allocations received and initial balance"
            testId="flow-received"
          />
          <Metric
            label="Credits allocated"
            value={formatCredits(credits.allocated)}
            hint="Sent to child organizations"
            testId="flow-allocated"
          />
        </dl>
        {credits.by_entry_type.length === 0 ? (
          <p className="text-sm text-muted-foreground">{MESSAGES.credits.emptyTitle}</p>
        ) : (
          <table className="w-full text-sm">
            <caption className="sr-only">Ledger totals by entry type</caption>
            <thead>
              <tr className="text-left text-muted-foreground">
                <th scope="col" className="py-1 font-normal">
                  Entry type
                </th>
                <th scope="col" className="py-1 text-right font-normal">
                  Entries
                </th>
                <th scope="col" className="py-1 text-right font-normal">
                  Total
                </th>
              </tr>
            </thead>
            <tbody className="divide-y">
              {credits.by_entry_type.map((row) => (
                <tr key={row.entry_type}>
                  <th scope="row" className="py-1.5 text-left font-normal">
                    {ENTRY_LABELS[row.entry_type]}
                  </th>
                  <td className="py-1.5 text-right tabular-nums">{row.count.toLocaleString('en-US')}</td>
                  <td className="py-1.5 text-right tabular-nums">{formatDecimal(row.total)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </CardContent>
    </Card>
  );
}
