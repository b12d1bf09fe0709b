import type { UserList, UserStatus } from '@console/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request } from '@/lib/api';
import { loadRetry } from '@/lib/load-retry';
import { queryString } from '@/lib/query-string';

export interface ListUsersQuery {
  organization_id?: string;
  page?: number;
  page_size?: number;
  status?: UserStatus;
  role?: string;
  search?: string;
  sort_by?: string;
  sort_order?: 'asc' | 'desc';
}

export const usersQueryKey = (query: ListUsersQuery) => ['users', 'list', query] as const;

/** Users of an organization in scope, filtered and paged by the server. */
export function listUsers(query: ListUsersQuery): Promise<UserList> {
  return request(
    `/api/users${queryString({
      organization_id: query.organization_id,
      page: query.page,
      page_size: query.page_size,
      status: query.status,
      role: query.role,
      search: query.search,
      sort_by: query.sort_by,
      sort_order: query.sort_order,
    })}`,
  );
}

export function useUsers(query: ListUsersQuery, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: usersQueryKey(query),
    queryFn: () => listUsers(query),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
    ...loadRetry,
  });
}
