import { ORG_STATUSES, type OrgStatus } from '@console/domain';
import { useQueries } from '@tanstack/react-query';
import { listOrganizations } from '@/features/organizations/api/list-organizations';
import { loadRetry } from '@/lib/load-retry';

/**
 * How many direct children have each status: one list call per status with the smallest
 * page, read for its total (GET /api/organizations?view=children&status=...). Active only
 * by default (spec 1 section 6); `includeAll` adds inactive and suspended.
 */
export function useChildStatusCounts(organizationId: string | null, includeAll: boolean) {
  const statuses: readonly OrgStatus[] = includeAll ? ORG_STATUSES : ['active'];
  return useQueries({
    queries: statuses.map((status) => ({
      queryKey: ['debug', 'child-status', organizationId, status] as const,
      queryFn: () =>
        listOrganizations({ view: 'children', organization_id: organizationId ?? undefined, status, page_size: 10 }).then((list) => list.total),
      enabled: !!organizationId,
      ...loadRetry,
    })),
    combine: (results) => ({
      counts: statuses.map((status, index) => ({ status, count: results[index]!.data })),
      isPending: results.some((r) => r.isPending),
      error: results.find((r) => r.error)?.error ?? null,
      refetch: () => Promise.all(results.map((r) => r.refetch())),
    }),
  });
}
