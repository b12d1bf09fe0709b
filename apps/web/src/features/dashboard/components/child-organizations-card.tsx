import { childTypeOf, ORG_TYPE_LABELS, type Dashboard } from '@console/domain';
import { Link } from 'react-router';
import { OrganizationLink } from '@/components/organizations/organization-link';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatCredits } from '@/lib/credit-format';
import { showsOrganizationList } from '@/lib/org-reach';
import { PATHS } from '@/lib/paths';
import { useViewer } from '@/lib/use-viewer';
import { formatCount } from './tone';
import { MESSAGES } from '../wording';

const m = MESSAGES.dashboardPages;

/**
 * The direct children with their balances: super agencies of a house, agencies of a super
 * agency, tenants of an agency; nothing for a tenant. A name links only where the viewer may open it.
 */
export function ChildOrganizationsCard({ data }: { data: Dashboard }) {
  const viewer = useViewer();
  const childType = childTypeOf(data.organization.org_type);
  if (!childType) return null;
  const { by_child: byChild } = data.credits;
  const label = `${ORG_TYPE_LABELS[childType]} organizations`;
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle className="text-base">{m.childOrganizations}</CardTitle>
        <CardDescription>
          {formatCount(byChild.count)} {label.toLowerCase()} holding {formatCredits(byChild.total_balance)}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {byChild.children.length === 0 ? (
          <p className="text-sm text-muted-foreground">{m.noChildren}</p>
        ) : (
          <ul className="divide-y text-sm" aria-label={label}>
            {byChild.children.map((child) => (
              <li key={child.id} className="flex flex-wrap items-center justify-between gap-x-3 py-2">
                <span className="min-w-0">
                  <OrganizationLink organization={child} />
                  <span className="ml-2 text-xs text-muted-foreground">
                    {ORG_TYPE_LABELS[child.org_type]} · <span className="capitalize">{child.status}</span>
                  </span>
                </span>
                <span className="tabular-nums">{formatCredits(child.credit_balance)}</span>
              </li>
            ))}
          </ul>
        )}
        {byChild.count > byChild.children.length && (
          <p className="mt-2 text-xs text-muted-foreground">
            The {byChild.children.length} largest balances of {formatCount(byChild.count)}.
            {showsOrganizationList(viewer) && (
              <>
                {' '}
                <Link to={PATHS.orgs} className="underline">
                  All child organizations
                </Link>
              </>
            )}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
