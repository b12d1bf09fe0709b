import type { ListOrganizationsQuery, OrganizationList } from '@console/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request } from '@/lib/api';
import { loadRetry } from '@/lib/load-retry';
import { queryString } from '@/lib/query-string';

export const organizationsQueryKey = (query: ListOrganizationsQuery) => ['organizations', 'list', query] as const;

/** Children (default) or descendants of an organization in scope, filtered and paged by the server. */
export function listOrganizations(query: ListOrganizationsQuery): Promise<OrganizationList> {
  return request(`/api/organizations${queryString(query)}`);
}

export function useOrganizations(query: ListOrganizationsQuery, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: organizationsQueryKey(query),
    queryFn: () => listOrganizations(query),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
    ...loadRetry,
  });
}
