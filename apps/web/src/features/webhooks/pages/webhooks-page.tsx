import { canHaveChildren, mayManageWebhooksOf, WEBHOOKS } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { LoadingRows } from '@/components/loading-rows';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { Card, CardContent } from '@/components/ui/card';
import { webhookQueries } from '@/api/webhooks';
import { useAuth } from '@/lib/auth';
import { PATHS } from '@/lib/paths';
import { useViewer } from '@/lib/use-viewer';
import { MESSAGES } from '../wording';
import { CreateEndpointDialog } from '../components/endpoint-dialog';
import { EndpointCard } from '../components/endpoint-card';

const w = MESSAGES.webhookPages;

/**
 * /settings/webhooks: the own organization's webhook endpoints, for its admins (the route lets
 * no one else in). Each shows where it sends, what, and how its deliveries go, with a link to
 * its delivery log; Add endpoint and the changes only when `mayManageWebhooksOf` allows them
 * (not while the organization or one above it is frozen). The list refreshes itself while shown.
 */
export default function WebhooksPage() {
  const viewer = useViewer();
  const { user } = useAuth();
  const organizationId = viewer?.organization.id ?? '';
  const endpoints = useQuery({ ...webhookQueries.endpoints(organizationId), enabled: !!viewer });
  if (!viewer) return null;
  const mayManage = mayManageWebhooksOf(viewer, viewer.organization);
  // A tenant has no organizations below it, so its endpoints are never offered them.
  const offersSubtree = canHaveChildren(viewer.organization.org_type);
  const organizationName = user?.organization.id === organizationId ? user.organization.name : w.yourOrganization;
  const count = endpoints.data?.endpoints.length ?? 0;

  return (
    <section className="min-w-0 space-y-6">
      <Breadcrumbs items={[{ label: MESSAGES.shell.nav.settings, to: PATHS.settings }, { label: w.title }]} />
      <PageHeader title={w.title} subtitle={w.subtitle(organizationName)}>
        {mayManage && endpoints.isSuccess && count < WEBHOOKS.maxEndpointsPerOrganization && (
          <CreateEndpointDialog organizationId={organizationId} offersSubtree={offersSubtree} />
        )}
      </PageHeader>
      {endpoints.isPending ? (
        <LoadingRows rows={['h-40 w-full', 'h-40 w-full']} />
      ) : endpoints.isError ? (
        <QueryError error={endpoints.error} title={w.loadFailed} onRetry={endpoints.refetch} />
      ) : count === 0 ? (
        <Card>
          <CardContent>
            <p className="text-sm text-muted-foreground">{w.empty}</p>
          </CardContent>
        </Card>
      ) : (
        <>
          <p className="text-sm text-muted-foreground">{w.count(count, WEBHOOKS.maxEndpointsPerOrganization)}</p>
          <ul className="grid min-w-0 gap-4" aria-label={w.endpointsLabel}>
            {endpoints.data.endpoints.map((endpoint) => (
              <EndpointCard
                key={endpoint.id}
                organizationId={organizationId}
                endpoint={endpoint}
                mayManage={mayManage}
                offersSubtree={offersSubtree}
              />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
