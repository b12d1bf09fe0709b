import { type Dashboard } from '@console/domain';
import { lazy, Suspense } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDecimal } from '@/lib/credit-format';
import { MESSAGES } from '../wording';

const CreditUsageChart = lazy(() => import('./credit-usage-chart'));

const m = MESSAGES.dashboardPages;

const COLUMNS = ['Date', 'Consumption', 'Refunds', 'Net'] as const;

/** Credit usage of the last 7 days: a chart, and the same figures as a table for screen readers. */
export function CreditUsageCard({ data }: { data: Dashboard }) {
  const { history } = data.credits.usage;
  const empty = history.every((day) => day.consumption === '0.00' && day.refunds === '0.00');
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle className="text-base">{m.creditUsage}</CardTitle>
        <CardDescription>Credits consumed and refunded per day (UTC), last 7 days.</CardDescription>
      </CardHeader>
      <CardContent>
        {empty ? (
          <p className="text-sm text-muted-foreground">{m.noUsageInHistory}</p>
        ) : (
          <div aria-hidden>
            <Suspense fallback={<Skeleton className="h-60 w-full" />}>
              <CreditUsageChart history={history} />
            </Suspense>
          </div>
        )}
        <table className="sr-only">
          <caption>{m.creditUsage}</caption>
          <thead>
            <tr>
              {COLUMNS.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {history.map((day) => (
              <tr key={day.date}>
                <th scope="row">{day.date}</th>
                <td>{formatDecimal(day.consumption)}</td>
                <td>{formatDecimal(day.refunds)}</td>
                <td>{formatDecimal(day.net)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </CardContent>
    </Card>
  );
}
