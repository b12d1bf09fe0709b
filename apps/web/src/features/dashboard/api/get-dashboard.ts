import { TIMING, type Dashboard } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { request } from '@/lib/api';
import { loadRetry } from '@/lib/load-retry';

export const dashboardQueryKey = (organizationId: string | undefined) => ['dashboard', organizationId ?? 'own'] as const;

/** Every dashboard figure of one organization (the caller's own when `organizationId` is undefined). */
export function getDashboard(organizationId: string | undefined): Promise<Dashboard> {
  const query = organizationId ? `?organization_id=${encodeURIComponent(organizationId)}` : '';
  return request(`/api/dashboard${query}`);
}

/** Dashboard figures stay fresh for 5 minutes (spec 1 section 9). */
export function useDashboard(organizationId: string | undefined, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: dashboardQueryKey(organizationId),
    queryFn: () => getDashboard(organizationId),
    staleTime: TIMING.longStaleMs,
    enabled: options.enabled ?? true,
    ...loadRetry,
  });
}
