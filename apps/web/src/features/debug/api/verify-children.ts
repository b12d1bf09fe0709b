import type { VerifyChildren } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { request } from '@/lib/api';
import { loadRetry } from '@/lib/load-retry';

export const verifyChildrenQueryKey = (id: string) => ['debug', 'verify-children', id] as const;

/** The direct children of an organization checked against the descendant procedure. */
export function verifyChildren(id: string): Promise<VerifyChildren> {
  return request(`/api/organizations/${encodeURIComponent(id)}/verify-children`);
}

/** Runs only once `enabled` (the Verify button); refetch() is the Refresh button. */
export function useVerifyChildren(id: string | null, enabled: boolean) {
  return useQuery({
    queryKey: verifyChildrenQueryKey(id ?? ''),
    queryFn: () => verifyChildren(id!),
    enabled: enabled && !!id,
    staleTime: 0,
    ...loadRetry,
  });
}
