import { isOwnOrganization } from '@console/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Bug, RefreshCw } from 'lucide-react';
import { useState, type ComponentProps, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { LIVE } from '@/api/live';
import { organizationQueries } from '@/api/organizations';
import { JwtDebugCard } from '@/components/debug/jwt-debug-card';
import { useAuth } from '@/lib/auth';
import { useOrgBase } from '@/lib/org-base';
import { useViewer } from '@/lib/use-viewer';
import { AgencyNoChildrenWarning } from '../components/agency-no-children-warning';
import { OrganizationFilters } from '../components/organization-filters';
import { OrganizationListResults } from '../components/organization-list-results';
import { OrganizationsListHeader } from '../components/organizations-list-header';
import { sortQuery, useListParams } from '../use-list-params';
import { organizationKeys } from '@/api/query-keys';

/**
 * /organizations (house roles): the Child Organizations of the user's organization and All
 * Organizations below it, each paged by the server; Refresh, New Organization and a JWT debugger.
 */
export default function OrganizationsAdminPage() {
  const base = useOrgBase();
  const { claims, session } = useAuth();
  const viewer = useViewer();
  const queryClient = useQueryClient();
  const [searchParams] = useSearchParams();
  const organizationId = searchParams.get('organization_id') || undefined;
  const own = !organizationId || (!!viewer && isOwnOrganization(viewer, { id: organizationId }));
  const [showDebugger, setShowDebugger] = useState(false);

  const childParams = useListParams('children_');
  const allParams = useListParams();
  // The children's balances move with their usage: both lists follow them while shown.
  const children = useQuery({
    ...organizationQueries.list({
      view: 'children',
      organization_id: organizationId,
      page: childParams.params.page,
      page_size: childParams.params.page_size,
      ...sortQuery(childParams.params),
    }),
    ...LIVE,
  });
  const all = useQuery({
    ...organizationQueries.list({
      view: 'descendants',
      organization_id: organizationId,
      status: allParams.params.status,
      org_type: allParams.params.org_type,
      attention: allParams.params.attention,
      search: allParams.params.search || undefined,
      page: allParams.params.page,
      page_size: allParams.params.page_size,
      ...sortQuery(allParams.params),
    }),
    ...LIVE,
  });

  const anchorName = children.data?.organization.name ?? (own ? claims?.organization_name : null);
  const refreshing = children.isFetching || all.isFetching;

  return (
    <section className="space-y-6">
      <OrganizationsListHeader
        backTo={own ? null : `${base}/${organizationId}`}
        subtitle={anchorName ? `Organizations under ${anchorName}` : 'Organizations under your organization'}
        base={base}
      >
        <Button
          variant="outline"
          disabled={refreshing}
          onClick={() => void queryClient.invalidateQueries({ queryKey: organizationKeys.all })}
        >
          <RefreshCw className={refreshing ? 'animate-spin' : undefined} aria-hidden />
          Refresh
        </Button>
        <Button variant="outline" aria-pressed={showDebugger} onClick={() => setShowDebugger((value) => !value)}>
          <Bug aria-hidden />
          {showDebugger ? 'Hide JWT Debugger' : 'Show JWT Debugger'}
        </Button>
      </OrganizationsListHeader>
      {showDebugger && <JwtDebugCard token={session?.access_token ?? null} />}
      {own && <AgencyNoChildrenWarning viewer={viewer} childCount={children.data?.total} />}
      <ListCard
        title="Child Organizations"
        description={`Direct children${anchorName ? ` of ${anchorName}` : ''}.`}
        query={children}
        params={childParams.params}
        onChange={childParams.update}
        base={base}
        emptyText="No child organizations yet."
      />
      <ListCard
        title="All Organizations"
        description={`Every organization below${anchorName ? ` ${anchorName}` : ''}, at any depth.`}
        filters={<OrganizationFilters params={allParams.params} onChange={allParams.update} />}
        query={all}
        params={allParams.params}
        onChange={allParams.update}
        base={base}
        emptyText={allParams.filtered ? 'No organizations match these filters.' : 'No organizations yet.'}
      />
    </section>
  );
}

interface ListCardProps extends Omit<ComponentProps<typeof OrganizationListResults>, 'label'> {
  /** The card's title, also the list's accessible name. */
  title: string;
  description: string;
  /** Shown above the list. */
  filters?: ReactNode;
}

/** One of the page's organization lists in its titled card. */
function ListCard({ title, description, filters, ...results }: ListCardProps) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className={filters ? 'space-y-4' : undefined}>
        {filters}
        <OrganizationListResults label={title} {...results} />
      </CardContent>
    </Card>
  );
}
