import type { OrganizationDetail } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { request } from '@/lib/api';
import { loadRetry } from '@/lib/load-retry';

export const organizationQueryKey = (id: string) => ['organizations', 'detail', id] as const;

/** One organization in scope with its billing settings, child count and active agents. */
export async function getOrganization(id: string): Promise<OrganizationDetail> {
  const { organization } = await request<{ organization: OrganizationDetail }>(`/api/organizations/${encodeURIComponent(id)}`);
  return organization;
}

export function useOrganization(id: string | undefined) {
  return useQuery({
    queryKey: organizationQueryKey(id ?? ''),
    queryFn: () => getOrganization(id!),
    enabled: !!id,
    ...loadRetry,
  });
}
