import { isOwnOrganization } from '@console/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Bug, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { organizationKeys, organizationQueries } from '@/api/organizations';
import { JwtDebugCard } from '@/components/debug/jwt-debug-card';
import { useAuth } from '@/lib/auth';
import { useOrgBase } from '@/lib/org-base';
import { useViewer } from '@/lib/use-viewer';
import { AgencyNoChildrenWarning } from '../components/agency-no-children-warning';
import { OrganizationFilters } from '../components/organization-filters';
import { OrganizationListResults } from '../components/organization-list-results';
import { OrganizationsListHeader } from '../components/organizations-list-header';
import { sortQuery, useListParams } from '../use-list-params';

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
  const children = useQuery(
    organizationQueries.list({
      view: 'children',
      organization_id: organizationId,
      page: childParams.params.page,
      page_size: childParams.params.page_size,
      ...sortQuery(childParams.params),
    }),
  );
  const all = useQuery(
    organizationQueries.list({
      view: 'descendants',
      organization_id: organizationId,
      status: allParams.params.status,
      org_type: allParams.params.org_type,
      search: allParams.params.search || undefined,
      page: allParams.params.page,
      page_size: allParams.params.page_size,
      ...sortQuery(allParams.params),
    }),
  );

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
      <Card>
        <CardHeader>
          <CardTitle>Child Organizations</CardTitle>
          <CardDescription>Direct children{anchorName ? ` of ${anchorName}` : ''}.</CardDescription>
        </CardHeader>
        <CardContent>
          <OrganizationListResults
            label="Child Organizations"
            query={children}
            params={childParams.params}
            onChange={childParams.update}
            base={base}
            emptyText="No child organizations yet."
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>All Organizations</CardTitle>
          <CardDescription>Every organization below{anchorName ? ` ${anchorName}` : ''}, at any depth.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <OrganizationFilters params={allParams.params} onChange={allParams.update} />
          <OrganizationListResults
            label="All Organizations"
            query={all}
            params={allParams.params}
            onChange={allParams.update}
            base={base}
            emptyText={allParams.filtered ? 'No organizations match these filters.' : 'No organizations yet.'}
          />
        </CardContent>
      </Card>
    </section>
  );
}
