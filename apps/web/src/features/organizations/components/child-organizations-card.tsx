import { isOwnOrganization, ORG_TYPE_LABELS, type OrganizationDetail } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { LIVE } from '@/api/live';
import { organizationQueries } from '@/api/organizations';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { useViewer } from '@/lib/use-viewer';
import { OrgStatusBadge } from './org-status-badge';
import { MESSAGES } from '../wording';

/** How many children the detail page shows; the list page has the rest. */
export const CHILD_CARD_SIZE = 10;

/** The first children of an organization, with a link to the full list. */
export function ChildOrganizationsCard({ organization, base }: { organization: OrganizationDetail; base: string }) {
  const viewer = useViewer();
  // Their balances move with their usage: the card follows them while shown.
  const children = useQuery({
    ...organizationQueries.list({ view: 'children', organization_id: organization.id, page: 1, page_size: CHILD_CARD_SIZE }),
    ...LIVE,
  });
  const own = !!viewer && isOwnOrganization(viewer, organization);
  const listPath = own ? base : `${base}?organization_id=${organization.id}`;
  const total = children.data?.total ?? organization.child_count;

  return (
    <Card>
      <CardHeader className="flex flex-row items-start justify-between gap-4">
        <div className="space-y-1.5">
          <CardTitle>Child organizations</CardTitle>
          <CardDescription>
            {total === 1 ? '1 direct child' : `${total} direct children`}
            {total > CHILD_CARD_SIZE && `, the first ${CHILD_CARD_SIZE} shown`}
          </CardDescription>
        </div>
        <Button asChild variant="outline" size="sm">
          <Link to={listPath}>View all</Link>
        </Button>
      </CardHeader>
      <CardContent>
        {children.isPending && <LoadingRows rows={2} className="h-5" />}
        {children.isError && <QueryError error={children.error} title={MESSAGES.organizations.failedToLoad} onRetry={children.refetch} />}
        {children.data?.organizations.length === 0 && <p className="text-sm text-muted-foreground">No child organizations yet.</p>}
        {!!children.data?.organizations.length && (
          <ul className="divide-y" aria-label="Child organizations">
            {children.data.organizations.map((child) => (
              <li key={child.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <Link
                  to={`${base}/${child.id}`}
                  className="min-w-0 font-medium wrap-anywhere underline-offset-4 hover:underline"
                  title={child.name}
                >
                  {child.name}
                </Link>
                <span className="flex items-center gap-2 text-sm text-muted-foreground">
                  {ORG_TYPE_LABELS[child.org_type]}
                  <OrgStatusBadge status={child.status} />
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
