import { mayManageWebhooksOf, WEBHOOK_DELIVERY_STATES, WEBHOOKS, type WebhookDeliveryState } from '@console/domain';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { ErrorAlert } from '@/components/error-alert';
import { FilterSelect } from '@/components/filter-select';
import { LoadingRows } from '@/components/loading-rows';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { webhookQueries } from '@/api/webhooks';
import { PATHS } from '@/lib/paths';
import { useViewer } from '@/lib/use-viewer';
import { MESSAGES } from '../wording';
import { DeliveryLog } from '../components/delivery-log';
import { EndpointStateBadge } from '../components/endpoint-card';
import { RedeliverFailedForm } from '../components/redeliver-failed-form';

const w = MESSAGES.webhookPages;

/**
 * /settings/webhooks/:endpointId: one endpoint's delivery log, newest first, a page at a time
 * (Load more), filtered by state, refreshing itself while shown. Each delivery opens to its last
 * attempts; Redeliver and Redeliver failed since… only when `mayManageWebhooksOf` allows changes.
 */
export default function WebhookDeliveriesPage() {
  const { endpointId = '' } = useParams();
  const viewer = useViewer();
  const organizationId = viewer?.organization.id ?? '';
  const [state, setState] = useState<WebhookDeliveryState | null>(null);
  const endpoints = useQuery({ ...webhookQueries.endpoints(organizationId), enabled: !!viewer });
  const endpoint = endpoints.data?.endpoints.find((candidate) => candidate.id === endpointId);
  const deliveries = useInfiniteQuery({ ...webhookQueries.deliveries(organizationId, endpointId, state), enabled: !!viewer && !!endpoint });
  if (!viewer) return null;
  const mayManage = mayManageWebhooksOf(viewer, viewer.organization);
  const rows = deliveries.data?.pages.flatMap((page) => page.deliveries) ?? [];
  const crumbs = [
    { label: MESSAGES.shell.nav.settings, to: PATHS.settings },
    { label: w.title, to: PATHS.webhooks },
    { label: endpoint?.url ?? w.logTitle },
  ];

  if (endpoints.isPending || endpoints.isError || !endpoint) {
    return (
      <section className="min-w-0 space-y-6">
        <Breadcrumbs items={crumbs} />
        <PageHeader title={w.logTitle} subtitle={null} loading={endpoints.isPending} />
        {endpoints.isPending ? (
          <LoadingRows />
        ) : endpoints.isError ? (
          <QueryError error={endpoints.error} title={w.loadFailed} onRetry={endpoints.refetch} />
        ) : (
          <ErrorAlert title={w.endpointNotFound} />
        )}
      </section>
    );
  }

  return (
    <section className="min-w-0 space-y-6">
      <Breadcrumbs items={crumbs} />
      <PageHeader title={w.logTitle} subtitle={<span className="break-all">{w.logSubtitle(endpoint.url, WEBHOOKS.retentionDays)}</span>}>
        <EndpointStateBadge endpoint={endpoint} />
      </PageHeader>
      {mayManage && (
        <Card className="gap-4">
          <CardHeader>
            <CardTitle className="text-base">{w.redeliverSinceTitle}</CardTitle>
            <CardDescription>{w.redeliverSinceHint}</CardDescription>
          </CardHeader>
          <CardContent>
            <RedeliverFailedForm organizationId={organizationId} endpointId={endpoint.id} />
          </CardContent>
        </Card>
      )}
      <Card className="gap-4">
        <CardHeader>
          <CardTitle className="text-base">{w.deliveriesLabel}</CardTitle>
        </CardHeader>
        <CardContent className="grid min-w-0 gap-4">
          <div className="flex items-center gap-2">
            <Label htmlFor="webhook-delivery-state">{w.stateFilter}</Label>
            <FilterSelect<WebhookDeliveryState>
              id="webhook-delivery-state"
              className="w-fit"
              value={state}
              onChange={setState}
              all={w.stateAll}
              options={WEBHOOK_DELIVERY_STATES}
              labelOf={(option) => w.states[option]}
            />
          </div>
          {deliveries.isPending ? (
            <LoadingRows rows={3} />
          ) : deliveries.isError ? (
            <QueryError error={deliveries.error} title={w.logLoadFailed} onRetry={deliveries.refetch} />
          ) : rows.length === 0 ? (
            <p className="text-sm text-muted-foreground">{state ? w.logEmptyFiltered : w.logEmpty}</p>
          ) : (
            <>
              <DeliveryLog organizationId={organizationId} endpointId={endpoint.id} deliveries={rows} mayManage={mayManage} />
              {deliveries.hasNextPage && (
                <Button
                  variant="outline"
                  className="w-fit"
                  onClick={() => void deliveries.fetchNextPage()}
                  disabled={deliveries.isFetchingNextPage}
                >
                  {deliveries.isFetchingNextPage ? w.loadingMore : w.loadMore}
                </Button>
              )}
            </>
          )}
        </CardContent>
      </Card>
    </section>
  );
}
