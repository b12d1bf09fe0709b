import type { CapStanding, OrganizationDetail } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { Gauge } from 'lucide-react';
import { billingQueries } from '@/api/billing';
import { CapProgress, WindowCapsText } from '@/components/billing/cap-usage';
import { IconCardTitle } from '@/components/icon-card-title';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { formatCredits } from '@/lib/credit-format';
import { formatDateTime } from '@/lib/dates';
import { SpendControlsDialog } from './spend-controls-dialog';
import { TopUpHistory } from './top-up-history';
import { MESSAGES } from '../wording';

const s = MESSAGES.spendPages;

/** Whether the caps stop the organization's usage now, with the events they refused this month. */
function CapStandingText({ standing }: { standing: CapStanding }) {
  if (standing.reached)
    return (
      <p className="text-sm font-medium text-destructive" data-testid="cap-standing">
        {s.capReachedRefusing(standing.refused_this_month)}
      </p>
    );
  if (standing.refused_this_month > 0)
    return (
      <p className="text-sm text-muted-foreground" data-testid="cap-standing">
        {s.capRefusedEarlier(standing.refused_this_month)}
      </p>
    );
  return null;
}

/**
 * The organization's monthly spend cap over its subtree, with this month's spend and a bar,
 * whether its caps stop its usage now (and the events they refused this month),
 * and its automatic top-up from the parent with what it did lately and this month's top-ups,
 * each with what it was for (Reverse on those the parent's admins may take back). Everyone who sees the
 * billing page sees it; Edit is offered when the server says the viewer may change it (the
 * parent's admins).
 */
export function SpendControlsCard({ organization }: { organization: Pick<OrganizationDetail, 'id' | 'name' | 'ancestors'> }) {
  const query = useQuery(billingQueries.spendControls(organization.id));
  // The trail ends at the parent, when the viewer sees it.
  const parent = organization.ancestors.at(-1)?.name ?? s.theParent;

  let body;
  if (query.isPending) body = <LoadingRows rows={2} />;
  else if (query.isError) body = <QueryError error={query.error} title={s.loadFailed} onRetry={query.refetch} />;
  else {
    const { spend_cap: cap, top_up: topUp, topped_up_this_month: toppedUp, last_top_up: last, top_ups: topUps } = query.data;
    body = (
      <div className="grid gap-6">
        <div className="grid gap-6 sm:grid-cols-2">
          <section className="grid content-start gap-2" aria-labelledby="spend-cap-heading">
            <h2 id="spend-cap-heading" className="text-sm font-medium">
              {s.capHeading}
            </h2>
            {cap.cap === null ? (
              <>
                <p className="text-lg font-semibold">{s.noCap}</p>
                <p className="text-sm text-muted-foreground tabular-nums">{s.chargedNoCap(formatCredits(cap.charged), cap.month)}</p>
              </>
            ) : (
              <>
                <p className="text-sm tabular-nums" data-testid="spend-cap-charged">
                  {s.chargedOf(formatCredits(cap.charged), formatCredits(cap.cap), cap.month)}
                </p>
                <CapProgress usage={cap} />
              </>
            )}
            <WindowCapsText daily={query.data.daily_spend_cap} weekly={query.data.weekly_spend_cap} className="text-sm" />
            <CapStandingText standing={query.data.cap_standing} />
          </section>
          <section className="grid content-start gap-2 text-sm" aria-labelledby="top-up-heading">
            <h2 id="top-up-heading" className="font-medium">
              {s.topUpHeading}
            </h2>
            <p data-testid="top-up-rule">
              {topUp
                ? s.topUpRule(formatCredits(topUp.below), formatCredits(topUp.amount), parent, formatCredits(topUp.monthly_max))
                : s.noTopUp}
            </p>
            {(topUp || Number(toppedUp) > 0) && <p className="text-muted-foreground">{s.toppedUpThisMonth(formatCredits(toppedUp))}</p>}
            {last && (
              <p className="text-muted-foreground" data-testid="last-top-up">
                {s.lastTopUp(formatDateTime(last.at), s.outcomes[last.outcome])}
              </p>
            )}
          </section>
        </div>
        {(topUp || topUps.length > 0) && <TopUpHistory records={topUps} childName={organization.name} parentName={parent} />}
      </div>
    );
  }

  return (
    <Card className="gap-4">
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid min-w-0 gap-1.5">
          <IconCardTitle icon={Gauge}>{s.title}</IconCardTitle>
          <CardDescription>{s.description}</CardDescription>
        </div>
        {query.data?.can_edit && <SpendControlsDialog organizationName={organization.name} controls={query.data} />}
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
