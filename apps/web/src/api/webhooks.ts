import {
  webhooksEndpoints as endpoints,
  type CreateWebhookEndpointInput,
  type RotateWebhookSecretInput,
  type UpdateWebhookEndpointInput,
  type WebhookDeliveryState,
  type WebhookEndpoint,
} from '@console/domain';
import { infiniteQueryOptions, keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api';
import { invalidate as invalidateChange } from './invalidation';
import { LIVE, liveWhile } from './live';
import { webhookKeys } from './query-keys';

export const webhookQueries = {
  /**
   * The organization's webhook endpoints (its own admins only), newest first, each with what it
   * waits to deliver and what failed lately (live: deliveries move without the viewer doing anything;
   * sooner while one waits, since its attempt comes within seconds and moves its card's figures).
   */
  endpoints: (organizationId: string) =>
    queryOptions({
      queryKey: webhookKeys.endpoints(organizationId),
      queryFn: ({ signal }) => call(endpoints.list, { params: { id: organizationId } }, { signal }),
      ...liveWhile((list: { endpoints: WebhookEndpoint[] }) => list.endpoints.some((endpoint) => endpoint.pending > 0)),
    }),
  /**
   * One endpoint's delivery log, newest first, a page at a time (the next page follows
   * `next_cursor`), optionally only the deliveries in one state; live while it is shown.
   */
  deliveries: (organizationId: string, endpointId: string, state: WebhookDeliveryState | null = null) =>
    infiniteQueryOptions({
      queryKey: webhookKeys.deliveryList(organizationId, endpointId, state),
      queryFn: ({ pageParam, signal }) =>
        call(
          endpoints.deliveries,
          { params: { id: organizationId, endpointId }, query: { state: state ?? undefined, cursor: pageParam } },
          { signal },
        ),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last) => last.next_cursor ?? undefined,
      // The rows stay on screen while another filter loads.
      placeholderData: keepPreviousData,
      ...LIVE,
    }),
};

/**
 * After a change, the organization's endpoint list (its states and counts) and, when the change
 * reaches one endpoint's deliveries, that endpoint's delivery log (every filter) are read again.
 */
function useInvalidate(organizationId: string) {
  const queryClient = useQueryClient();
  return (endpointId?: string) =>
    endpointId
      ? invalidateChange(queryClient, 'webhookDeliveriesChanged', organizationId, endpointId)
      : invalidateChange(queryClient, 'webhookEndpointsChanged', organizationId);
}

/** Registers an endpoint; the answer holds its signing secret, which is never shown again. */
export function useCreateWebhookEndpoint(organizationId: string) {
  const invalidate = useInvalidate(organizationId);
  return useMutation({
    mutationFn: (body: CreateWebhookEndpointInput) => call(endpoints.create, { params: { id: organizationId }, body }),
    onSuccess: () => invalidate(),
  });
}

/** Changes an endpoint's URL, description, events or subtree, or disables or enables it; only the fields given change. */
export function useUpdateWebhookEndpoint(organizationId: string) {
  const invalidate = useInvalidate(organizationId);
  return useMutation({
    mutationFn: async ({ endpointId, body }: { endpointId: string; body: UpdateWebhookEndpointInput }) =>
      (await call(endpoints.update, { params: { id: organizationId, endpointId }, body })).endpoint,
    // Disabling or enabling changes what waits in its log.
    onSuccess: (_endpoint, { endpointId }) => invalidate(endpointId),
  });
}

/** Deletes an endpoint with its delivery log: nothing more is sent to it. */
export function useDeleteWebhookEndpoint(organizationId: string) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidate(organizationId);
  return useMutation({
    mutationFn: async (endpointId: string) => (await call(endpoints.remove, { params: { id: organizationId, endpointId } })).endpoint,
    onSuccess: async (_endpoint, endpointId) => {
      // Its log is gone with it: nothing should ask for it again.
      queryClient.removeQueries({ queryKey: webhookKeys.deliveries(organizationId, endpointId) });
      await invalidate();
    },
  });
}

/** Gives an endpoint a new signing secret, answered once; the old one signs beside it for the grace period chosen. */
export function useRotateWebhookSecret(organizationId: string) {
  const invalidate = useInvalidate(organizationId);
  return useMutation({
    mutationFn: ({ endpointId, body }: { endpointId: string; body: RotateWebhookSecretInput }) =>
      call(endpoints.rotate, { params: { id: organizationId, endpointId }, body }),
    onSuccess: () => invalidate(),
  });
}

/** Sends a webhook.test event to the endpoint now; its delivery joins the endpoint's log. */
export function useSendWebhookTest(organizationId: string) {
  const invalidate = useInvalidate(organizationId);
  return useMutation({
    mutationFn: async (endpointId: string) => (await call(endpoints.test, { params: { id: organizationId, endpointId } })).delivery,
    onSuccess: (_delivery, endpointId) => invalidate(endpointId),
  });
}

/** Sends one delivery's event to the endpoint again now, with the same webhook-id. */
export function useRedeliverWebhook(organizationId: string, endpointId: string) {
  const invalidate = useInvalidate(organizationId);
  return useMutation({
    mutationFn: async (deliveryId: string) =>
      (await call(endpoints.redeliver, { params: { id: organizationId, endpointId, deliveryId } })).delivery,
    onSuccess: () => invalidate(endpointId),
  });
}

/** Sends again every failed delivery of the endpoint whose event came at or after `since`; resolves to how many. */
export function useRedeliverFailedWebhooks(organizationId: string, endpointId: string) {
  const invalidate = useInvalidate(organizationId);
  return useMutation({
    mutationFn: async (since: string) =>
      (await call(endpoints.redeliverFailed, { params: { id: organizationId, endpointId }, body: { since } })).redelivered,
    onSuccess: () => invalidate(endpointId),
  });
}
