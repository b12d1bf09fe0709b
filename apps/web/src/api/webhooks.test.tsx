import type { QueryClient } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { watchViews } from '@/test/query-views';
import { json, mockApi, OWN_ORG_ID } from '@/test/helpers';
import { DELIVERY_ID, deliveryOf, ENDPOINT_ID, endpointOf, endpointPath } from '@/test/webhook-data';
import {
  useCreateWebhookEndpoint,
  useDeleteWebhookEndpoint,
  useRedeliverFailedWebhooks,
  useRedeliverWebhook,
  useRotateWebhookSecret,
  useSendWebhookTest,
  useUpdateWebhookEndpoint,
} from './webhooks';
import { webhookKeys } from './query-keys';

const OTHER_ENDPOINT = '00000000-0000-4000-8000-0000000000e2';

/** The webhook views a change may reach, as cached answers nobody is watching. */
const VIEWS = {
  endpoints: webhookKeys.endpoints(OWN_ORG_ID),
  log: webhookKeys.deliveryList(OWN_ORG_ID, ENDPOINT_ID, null),
  failedLog: webhookKeys.deliveryList(OWN_ORG_ID, ENDPOINT_ID, 'failed'),
  otherLog: webhookKeys.deliveryList(OWN_ORG_ID, OTHER_ENDPOINT, null),
} as const;

const { seeded, wrapper, invalidated } = watchViews(VIEWS);

describe('a webhook change is asked again where it shows', () => {
  it('creating or rotating: the endpoint list only (no delivery log changed)', async () => {
    mockApi({
      [`POST /api/organizations/${OWN_ORG_ID}/webhooks`]: () => json(201, { endpoint: endpointOf(), secret: 'whsec_a' }),
      [`POST ${endpointPath()}/rotate`]: () => json(200, { endpoint: endpointOf(), secret: 'whsec_b' }),
    });
    let client = seeded();
    const create = renderHook(() => useCreateWebhookEndpoint(OWN_ORG_ID), { wrapper: wrapper(client) });
    await create.result.current.mutateAsync({ url: 'https://hooks.example.com', event_types: ['balance.low'] });
    expect(invalidated(client)).toEqual(['endpoints']);

    client = seeded();
    const rotate = renderHook(() => useRotateWebhookSecret(OWN_ORG_ID), { wrapper: wrapper(client) });
    await rotate.result.current.mutateAsync({ endpointId: ENDPOINT_ID, body: { grace_hours: 24 } });
    expect(invalidated(client)).toEqual(['endpoints']);
  });

  it("editing, sending a test event, redelivering one or all failed: the list and that endpoint's log (every filter), not another's", async () => {
    mockApi({
      [`PATCH ${endpointPath()}`]: () => json(200, { endpoint: endpointOf({ enabled: false }) }),
      [`POST ${endpointPath()}/test`]: () => json(202, { delivery: deliveryOf() }),
      [`POST ${endpointPath()}/deliveries/${DELIVERY_ID}/redeliver`]: () => json(202, { delivery: deliveryOf() }),
      [`POST ${endpointPath()}/redeliver`]: () => json(202, { redelivered: 2 }),
    });
    const changes: [string, (client: QueryClient) => Promise<unknown>][] = [
      [
        'edit',
        (client) =>
          renderHook(() => useUpdateWebhookEndpoint(OWN_ORG_ID), { wrapper: wrapper(client) }).result.current.mutateAsync({
            endpointId: ENDPOINT_ID,
            body: { enabled: false },
          }),
      ],
      [
        'test',
        (client) => renderHook(() => useSendWebhookTest(OWN_ORG_ID), { wrapper: wrapper(client) }).result.current.mutateAsync(ENDPOINT_ID),
      ],
      [
        'redeliver',
        (client) =>
          renderHook(() => useRedeliverWebhook(OWN_ORG_ID, ENDPOINT_ID), { wrapper: wrapper(client) }).result.current.mutateAsync(
            DELIVERY_ID,
          ),
      ],
      [
        'redeliver failed',
        (client) =>
          renderHook(() => useRedeliverFailedWebhooks(OWN_ORG_ID, ENDPOINT_ID), { wrapper: wrapper(client) }).result.current.mutateAsync(
            '2025-03-01T00:00:00.000Z',
          ),
      ],
    ];
    for (const [name, change] of changes) {
      const client = seeded();
      await change(client);
      expect({ name, views: invalidated(client) }).toEqual({ name, views: ['endpoints', 'log', 'failedLog'] });
    }
  });

  it("deleting: the list, and the endpoint's log is dropped rather than asked again", async () => {
    mockApi({ [`DELETE ${endpointPath()}`]: () => json(200, { endpoint: endpointOf() }) });
    const client = seeded();
    const { result } = renderHook(() => useDeleteWebhookEndpoint(OWN_ORG_ID), { wrapper: wrapper(client) });
    await result.current.mutateAsync(ENDPOINT_ID);
    expect(invalidated(client)).toEqual(['endpoints']);
    expect(client.getQueryState(VIEWS.log)).toBeUndefined();
    expect(client.getQueryState(VIEWS.otherLog)).toBeDefined();
  });
});
