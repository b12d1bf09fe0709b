import { canHaveChildren, mayAllocateFrom, type Dashboard } from '@console/domain';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { formatCredits } from '@/lib/credit-format';
import { PATHS } from '@/lib/paths';
import { useViewer } from '@/lib/use-viewer';
import { ActionCardHeader } from './action-card-header';
import { formatChange } from './tone';
import { Metric } from './metric';
import { MESSAGES } from '../wording';

const m = MESSAGES.dashboardPages;

/**
 * Balance, flows, usage and forecast, with Allocate Credits to the allocation page when the
 * user may allocate from this organization (their own, with children to receive credits).
 */
export function CreditBalancePanel({ data }: { data: Dashboard }) {
  const viewer = useViewer();
  const { credits, organization } = data;
  const mayAllocate = !!viewer && mayAllocateFrom(viewer, organization) && canHaveChildren(organization.org_type);
  const { usage, forecast } = credits;
  return (
    <Card className="gap-4">
      <ActionCardHeader title={m.creditBalance} description={forecast.method}>
        {mayAllocate && (
          <Button asChild size="sm">
            <Link to={`${PATHS.orgs}/${organization.id}/allocate-credits`}>{m.allocateCredits}</Link>
          </Button>
        )}
      </ActionCardHeader>
      <CardContent>
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <Metric label="Balance" value={formatCredits(credits.balance)} testId="panel-balance" />
          <Metric label="Received" value={formatCredits(credits.received)} hint="Allocations received and initial balance" />
          <Metric label="Allocated" value={formatCredits(credits.allocated)} hint="Sent to child organizations" />
          <Metric
            label={`Used, last ${usage.period_days} days`}
            value={formatCredits(usage.current_period)}
            hint={
              usage.percent_change === null
                ? m.notComparable
                : `${formatChange(usage.percent_change)} vs the ${usage.period_days} days before`
            }
          />
          <Metric label={`Used, previous ${usage.period_days} days`} value={formatCredits(usage.previous_period)} />
          <Metric
            label="Average per day"
            value={formatCredits(forecast.average_daily)}
            hint={m.forecastBasis(forecast.basis_days)}
            testId="forecast-daily"
          />
          <Metric label="Forecast, next month" value={formatCredits(forecast.next_month)} testId="forecast-month" />
          <Metric label="Forecast, next quarter" value={formatCredits(forecast.next_quarter)} testId="forecast-quarter" />
        </dl>
      </CardContent>
    </Card>
  );
}
