import type { ExpiringGrant } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { Hourglass } from 'lucide-react';
import { EXPIRING_SOON_DAYS, grantQueries } from '@/api/grants';
import { ResponsiveDataTable } from '@/components/data-table';
import { IconCardTitle } from '@/components/icon-card-title';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { StackedCard } from '@/components/stacked-card';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { formatDecimal } from '@/lib/credit-format';
import { formatDateTime } from '@/lib/dates';
import { agentsOf, expiresIn } from '@/lib/grant-format';
import { MESSAGES } from '../wording';

const w = MESSAGES.grantPages.expiring;

/** How long is left, the instant itself on hover and for assistive technology. */
const when = (grant: ExpiringGrant) => (
  <time dateTime={grant.expires_at ?? undefined} title={formatDateTime(grant.expires_at)}>
    {grant.expires_at ? expiresIn(grant.expires_at) : ''}
  </time>
);
const left = (grant: ExpiringGrant) => <span className="tabular-nums">{formatDecimal(grant.remaining)}</span>;

/**
 * Expiring soon (whoever may view billing): the grants of the organizations below and of the
 * own one that expire within EXPIRING_SOON_DAYS days, soonest first: whose, how much is left,
 * for which agents and in how long. At the expiry what is left goes back to who granted it.
 */
export function ExpiringGrantsCard() {
  const expiring = useQuery(grantQueries.expiring(EXPIRING_SOON_DAYS));
  let body;
  if (expiring.isPending) body = <LoadingRows rows={2} />;
  else if (expiring.isError) body = <QueryError error={expiring.error} title={w.loadFailed} onRetry={expiring.refetch} />;
  else if (expiring.data.grants.length === 0) body = <p className="text-sm text-muted-foreground">{w.empty(EXPIRING_SOON_DAYS)}</p>;
  else
    body = (
      <ResponsiveDataTable<ExpiringGrant>
        label={w.label}
        rows={expiring.data.grants}
        columns={[
          {
            head: w.organization,
            className: 'max-w-56 whitespace-normal font-medium wrap-anywhere',
            cell: (grant) => grant.organization_name,
          },
          { head: w.left, headClassName: 'text-right', className: 'text-right whitespace-nowrap', cell: left },
          { head: w.agents, className: 'max-w-56 whitespace-normal wrap-anywhere', cell: agentsOf },
          { head: w.expiresIn, className: 'whitespace-nowrap', cell: when },
        ]}
        card={(grant) => (
          <StackedCard
            title={grant.organization_name}
            fields={[
              { label: w.left, value: left(grant) },
              { label: w.agents, value: agentsOf(grant) },
              { label: w.expiresIn, value: when(grant) },
            ]}
          />
        )}
      />
    );
  return (
    <Card className="min-w-0 gap-4">
      <CardHeader>
        <IconCardTitle icon={Hourglass}>{w.title}</IconCardTitle>
        <CardDescription>{w.description(EXPIRING_SOON_DAYS)}</CardDescription>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
