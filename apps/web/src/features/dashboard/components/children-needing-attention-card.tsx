import { ORG_ATTENTION_LABELS, ORG_TYPE_LABELS, isOwnOrganization, type Dashboard } from '@console/domain';
import { Link } from 'react-router';
import { OrganizationLink } from '@/components/organizations/organization-link';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatCredits, formatDecimal } from '@/lib/credit-format';
import { showsOrganizationList } from '@/lib/org-reach';
import { PATHS } from '@/lib/paths';
import { useViewer } from '@/lib/use-viewer';
import { MESSAGES } from '../wording';

const m = MESSAGES.dashboardPages;

/**
 * The direct children below their low-balance threshold or stopped by a spend cap, lowest
 * balance first, as the server gives them to the admins who watch them (none to anyone else,
 * and then no card), each with its reasons: the balance against its threshold, the cap with the
 * events it refused this month. A name links only where the viewer may open it; the filtered
 * lists are linked for viewers offered the organization list.
 */
export function ChildrenNeedingAttentionCard({ data }: { data: Dashboard }) {
  const viewer = useViewer();
  const { count, children } = data.credits.children_needing_attention;
  if (count === 0) return null;
  const own = !!viewer && isOwnOrganization(viewer, data.organization);
  const listOf = (attention: 'low_balance' | 'cap_reached') =>
    `${PATHS.orgs}?${own ? '' : `organization_id=${data.organization.id}&`}attention=${attention}`;
  const anyLow = children.some((child) => child.low_balance);
  const anyCapped = children.some((child) => child.cap_standing.reached);
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle className="text-base">{m.childrenNeedingAttention}</CardTitle>
        <CardDescription>{m.childrenNeedingAttentionDescription(count)}</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y text-sm" aria-label={m.childrenNeedingAttention}>
          {children.map((child) => (
            <li key={child.id} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-2">
              <span className="min-w-0">
                <OrganizationLink organization={child} />
                <span className="ml-2 text-xs text-muted-foreground">
                  {ORG_TYPE_LABELS[child.org_type]} · <span className="capitalize">{child.status}</span>
                </span>
                {!child.has_active_admin && <span className="block text-xs text-muted-foreground">{m.noActiveAdmin}</span>}
              </span>
              <span className="grid justify-items-end gap-1">
                {child.low_balance && (
                  <span className="inline-flex items-center gap-2">
                    <Badge variant="destructive">Low balance</Badge>
                    <span className="tabular-nums">{formatCredits(child.credit_balance)}</span>
                    <span className="text-xs text-muted-foreground tabular-nums">
                      alert below {formatDecimal(child.low_balance_threshold)}
                    </span>
                  </span>
                )}
                {child.cap_standing.reached && (
                  <span className="inline-flex items-center gap-2">
                    <Badge variant="destructive">{ORG_ATTENTION_LABELS.cap_reached}</Badge>
                    <span className="text-xs text-muted-foreground">{m.capStopped(child.cap_standing.refused_this_month)}</span>
                  </span>
                )}
              </span>
            </li>
          ))}
        </ul>
        {showsOrganizationList(viewer) && (
          <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs">
            {anyLow && (
              <Link to={listOf('low_balance')} className="underline">
                {m.allLowChildren}
              </Link>
            )}
            {anyCapped && (
              <Link to={listOf('cap_reached')} className="underline">
                {m.allCappedChildren}
              </Link>
            )}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
