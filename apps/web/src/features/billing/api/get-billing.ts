import type { BillingResponse } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { request } from '@/lib/api';
import { loadRetry } from '@/lib/load-retry';

export const billingQueryKey = (organizationId: string) => ['billing', 'settings', organizationId] as const;

/** Billing settings, active agents, the allowed range of the limit and what the caller may change. */
export function getBilling(organizationId: string): Promise<BillingResponse> {
  return request<BillingResponse>(`/api/organizations/${encodeURIComponent(organizationId)}/billing`);
}

export function useBilling(organizationId: string | undefined) {
  return useQuery({
    queryKey: billingQueryKey(organizationId ?? ''),
    queryFn: () => getBilling(organizationId!),
    enabled: !!organizationId,
    ...loadRetry,
  });
}
