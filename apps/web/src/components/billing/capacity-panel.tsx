import { AGENT_LIMIT, ORG_TYPE_LABELS, TREE_CHILDREN_LIMIT } from '@console/domain';
import { OrganizationLink } from '@/components/organizations/organization-link';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { useQuery } from '@tanstack/react-query';
import { billingQueries } from '@/api/billing';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { sharePercent } from './usage';
import { MESSAGES } from '@/lib/wording';

const m = MESSAGES.billingPages;

interface CapacityPanelProps {
  organizationId: string;
  /** Where a child's name leads, e.g. its billing or resources page, for a viewer who may open it. */
  childHref: (childId: string) => string;
  title?: string;
}

/**
 * The organization's limit shared among its direct children: each child's share, the total
 * in use (destructive above AGENT_LIMIT.capacityDestructivePercent) and the capacity left.
 */
export function CapacityPanel({ organizationId, childHref, title = m.capacityUsed }: CapacityPanelProps) {
  const capacity = useQuery(billingQueries.capacity(organizationId));

  if (capacity.isPending) return <LoadingRows />;
  if (capacity.isError) {
    return (
      <QueryError
        error={capacity.error}
        title={m.loadCapacityFailed}
        notFound={MESSAGES.organizations.notFound}
        onRetry={capacity.refetch}
      />
    );
  }

  const { activated_agent_limit: limit, children_limit_total: total, available_parent_capacity: left, children } = capacity.data;
  const usedPercent = sharePercent(total, limit);
  const destructive = usedPercent > AGENT_LIMIT.capacityDestructivePercent;

  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle className="text-base">{title}</CardTitle>
        <CardDescription>
          {total} / {limit} ({m.capacityShare(usedPercent)})
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="flex flex-wrap items-center gap-3">
          <Badge variant={destructive ? 'destructive' : 'secondary'} data-testid="capacity-used-badge">
            {usedPercent}%
          </Badge>
          <Progress
            value={Math.min(100, usedPercent)}
            aria-label={m.capacityUsed}
            className="min-w-32 flex-1"
            indicatorClassName={destructive ? 'bg-destructive' : undefined}
          />
        </div>
        <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-muted-foreground">{m.activatedAgentLimit}</dt>
            <dd className="font-medium tabular-nums">{limit}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">{m.childrenLimitTotal}</dt>
            <dd className="font-medium tabular-nums">{total}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">{m.capacityLeft}</dt>
            <dd className="font-medium tabular-nums" data-testid="capacity-left">
              {left}
            </dd>
          </div>
        </dl>
        {children.length === 0 ? (
          <p className="text-sm text-muted-foreground">{m.noChildren}</p>
        ) : (
          <ul className="divide-y" aria-label={m.childOrganizations}>
            {children.map((child) => {
              const share = sharePercent(child.activated_agent_limit, limit);
              return (
                <li key={child.id} className="grid gap-2 py-3 first:pt-0 last:pb-0">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <div className="min-w-0">
                      <OrganizationLink organization={child} to={childHref(child.id)} />
                      <p className="text-xs text-muted-foreground">
                        {ORG_TYPE_LABELS[child.org_type]} · <span className="capitalize">{child.status}</span>
                      </p>
                    </div>
                    <span className="text-sm tabular-nums">
                      {child.activated_agent_limit} · {m.capacityShare(share)}
                    </span>
                  </div>
                  <Progress value={Math.min(100, share)} aria-label={`${child.name}: ${m.capacityShare(share)}`} />
                </li>
              );
            })}
          </ul>
        )}
        {children.length >= TREE_CHILDREN_LIMIT && <p className="text-xs text-muted-foreground">{m.moreChildren(TREE_CHILDREN_LIMIT)}</p>}
      </CardContent>
    </Card>
  );
}
