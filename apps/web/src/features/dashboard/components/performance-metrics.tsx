import { type Dashboard } from '@console/domain';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatCredits } from '@/lib/credit-format';
import { formatChange, formatCount } from './tone';
import { Metric } from './metric';
import { MESSAGES } from '../wording';

const m = MESSAGES.dashboardPages;

function change(percent: number | null, days: number) {
  return percent === null ? `vs previous ${days} days: ${m.notComparable}` : `${formatChange(percent)} vs previous ${days} days`;
}

/** The subtree's growth over each period, newest first. */
const GROWTH: { period: keyof Dashboard['organizations']['growth']; label: string; testId?: string }[] = [
  { period: 'monthly', label: 'New in the last 30 days', testId: 'metric-growth-monthly' },
  { period: 'quarterly', label: 'New in the last 90 days' },
  { period: 'yearly', label: 'New in the last 365 days' },
];

/**
 * Growth of the subtree, credit usage and the team: the figures that exist (agents have no
 * source). A parent's credit usage is its whole subtree's, its own beneath.
 */
export function PerformanceMetrics({ data }: { data: Dashboard }) {
  const { organizations, credits, team, organization } = data;
  const { growth } = organizations;
  const hasDescendants = organization.org_type !== 'tenant';
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle className="text-base">{m.performanceMetrics}</CardTitle>
        <CardDescription>From the organization tree, the credit ledger and the team of {organization.name}.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {hasDescendants && (
            <>
              <Metric
                label="Organizations below"
                value={formatCount(organizations.total)}
                hint={`${formatCount(organizations.by_status.active)} active`}
                testId="metric-organizations"
              />
              {GROWTH.map(({ period, label, testId }) => (
                <Metric
                  key={period}
                  label={label}
                  value={formatCount(growth[period].current)}
                  hint={change(growth[period].percent, growth[period].days)}
                  testId={testId}
                />
              ))}
            </>
          )}
          {hasDescendants ? (
            <Metric
              label={`Credits used with the organizations below, last ${credits.usage.period_days} days`}
              value={formatCredits(credits.subtree_usage.current_period)}
              hint={`${change(credits.subtree_usage.percent_change, credits.usage.period_days)}; ${formatCredits(credits.usage.current_period)} by ${organization.name} itself`}
              testId="metric-usage"
            />
          ) : (
            <Metric
              label={`Credits used, last ${credits.usage.period_days} days`}
              value={formatCredits(credits.usage.current_period)}
              hint={change(credits.usage.percent_change, credits.usage.period_days)}
              testId="metric-usage"
            />
          )}
          <Metric
            label="Active team members"
            value={formatCount(team.by_status.active)}
            hint={`${formatCount(team.total)} in total`}
            testId="metric-team"
          />
        </dl>
      </CardContent>
    </Card>
  );
}
