import { isOwnOrganization } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { Card, CardContent } from '@/components/ui/card';
import { LIVE } from '@/api/live';
import { organizationQueries } from '@/api/organizations';
import { useAuth } from '@/lib/auth';
import { useOrgBase } from '@/lib/org-base';
import { useViewer } from '@/lib/use-viewer';
import { AgencyNoChildrenWarning } from '../components/agency-no-children-warning';
import { OrganizationFilters } from '../components/organization-filters';
import { OrganizationListResults } from '../components/organization-list-results';
import { OrganizationsListHeader } from '../components/organizations-list-header';
import { OrganizationTreeView } from '../components/organization-tree-view';
import { ViewToggle, type ListMode } from '../components/view-toggle';
import { sortQuery, useListParams } from '../use-list-params';

/**
 * /orgs: the direct children of the user's organization (or, with ?organization_id, of
 * another organization in scope), as a filtered, paged table or as a hierarchy that
 * expands on demand.
 */
export default function OrgsListPage() {
  const base = useOrgBase();
  const { claims } = useAuth();
  const viewer = useViewer();
  const [searchParams, setSearchParams] = useSearchParams();
  const organizationId = searchParams.get('organization_id') || undefined;
  const own = !organizationId || (!!viewer && isOwnOrganization(viewer, { id: organizationId }));
  const mode: ListMode = searchParams.get('mode') === 'hierarchy' ? 'hierarchy' : 'table';
  const { params, update, filtered } = useListParams();

  const list = useQuery({
    ...organizationQueries.list({
      view: 'children',
      organization_id: organizationId,
      status: params.status,
      org_type: params.org_type,
      attention: params.attention,
      search: params.search || undefined,
      page: params.page,
      page_size: params.page_size,
      ...sortQuery(params),
    }),
    enabled: mode === 'table',
    // A child's balance moves with its usage: the parent's list follows it while shown.
    ...LIVE,
  });
  const tree = useQuery({ ...organizationQueries.tree(organizationId), enabled: mode === 'hierarchy' });

  const setMode = useCallback(
    // A new history entry: Back returns to the other view.
    (next: ListMode) =>
      setSearchParams((current) => {
        const copy = new URLSearchParams(current);
        if (next === 'hierarchy') copy.set('mode', next);
        else copy.delete('mode');
        return copy;
      }),
    [setSearchParams],
  );

  const anchorName = (mode === 'table' ? list.data?.organization.name : tree.data?.node.name) ?? (own ? claims?.organization_name : null);
  // Without filters the total is the number of children; the tree counts them too.
  const childCount = mode === 'table' ? (filtered ? undefined : list.data?.total) : tree.data?.node.child_count;

  return (
    <section className="space-y-6">
      <OrganizationsListHeader
        backTo={own ? null : `${base}/${organizationId}`}
        subtitle={anchorName ? `Direct child organizations of ${anchorName}` : 'Direct child organizations'}
        base={base}
      >
        <ViewToggle mode={mode} onChange={setMode} />
      </OrganizationsListHeader>
      {own && <AgencyNoChildrenWarning viewer={viewer} childCount={childCount} />}
      <Card>
        <CardContent className="space-y-4">
          {mode === 'table' ? (
            <>
              <OrganizationFilters params={params} onChange={update} />
              <OrganizationListResults
                label="Child Organizations"
                query={list}
                params={params}
                onChange={update}
                base={base}
                emptyText={filtered ? 'No organizations match these filters.' : 'No child organizations yet.'}
              />
            </>
          ) : (
            <OrganizationTreeView rootId={organizationId} base={base} />
          )}
        </CardContent>
      </Card>
    </section>
  );
}
