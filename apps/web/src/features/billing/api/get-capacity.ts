import type { CapacityResponse } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { request } from '@/lib/api';
import { loadRetry } from '@/lib/load-retry';

export const capacityQueryKey = (organizationId: string) => ['billing', 'capacity', organizationId] as const;

/** An organization's limit, its direct children's limits and the capacity left. */
export function getCapacity(organizationId: string): Promise<CapacityResponse> {
  return request<CapacityResponse>(`/api/organizations/${encodeURIComponent(organizationId)}/capacity`);
}

export function useCapacity(organizationId: string | undefined, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: capacityQueryKey(organizationId ?? ''),
    queryFn: () => getCapacity(organizationId!),
    enabled: enabled && !!organizationId,
    ...loadRetry,
  });
}
