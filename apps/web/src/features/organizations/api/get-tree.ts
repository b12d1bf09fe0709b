import type { OrganizationTree } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { request } from '@/lib/api';
import { loadRetry } from '@/lib/load-retry';

export const organizationTreeQueryKey = (id: string | undefined) => ['organizations', 'tree', id ?? 'own'] as const;

/** One level of the hierarchy: the node with its counts and its first children by name. */
export function getOrganizationTree(id: string | undefined): Promise<OrganizationTree> {
  const query = id ? `?organization_id=${encodeURIComponent(id)}` : '';
  return request(`/api/organizations/tree${query}`);
}

/** `id` undefined reads the caller's own organization; nothing loads until `enabled`. */
export function useOrganizationTree(id: string | undefined, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: organizationTreeQueryKey(id),
    queryFn: () => getOrganizationTree(id),
    enabled: options.enabled ?? true,
    ...loadRetry,
  });
}
