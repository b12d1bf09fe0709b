import { isRole, PAGING, USER_SORT_FIELDS, USER_STATUSES, type UserStatus } from '@console/domain';
import { useCallback, useMemo } from 'react';
import { useSearchPatch } from '@/lib/use-search-patch';

export type UserSortField = (typeof USER_SORT_FIELDS)[number];
type Order = 'asc' | 'desc';

export interface UserListParams {
  search: string;
  status: UserStatus | undefined;
  role: string | undefined;
  page: number;
  sort: UserSortField;
  order: Order;
}

/** The order a sort starts in: names A to Z, dates newest first (the server's own default). */
export const USER_SORT_DEFAULT_ORDER = (sort: UserSortField): Order => (sort === 'created_at' || sort === 'last_login_at' ? 'desc' : 'asc');
const DEFAULT_SORT: UserSortField = 'created_at';

function oneOf<T extends string>(values: readonly T[], value: string | null): T | undefined {
  return value !== null && (values as readonly string[]).includes(value) ? (value as T) : undefined;
}

/**
 * Search, filters, sort and page of a users list, kept in the URL so Back, a reload or a
 * shared link shows the same list. A malformed value reads as its default. Any change other
 * than the page starts again at page 1; each adds a history entry, except typed search text,
 * which replaces it (Back does not step through every pause in the typing).
 */
export function useUserListParams() {
  const [searchParams, patch] = useSearchPatch();
  const params = useMemo<UserListParams>(() => {
    const page = Number(searchParams.get('page'));
    const role = searchParams.get('role');
    const sort = oneOf(USER_SORT_FIELDS, searchParams.get('sort')) ?? DEFAULT_SORT;
    return {
      search: searchParams.get('search') ?? '',
      status: oneOf(USER_STATUSES, searchParams.get('status')),
      role: isRole(role) ? role : undefined,
      page: Number.isInteger(page) && page >= 1 ? page : PAGING.defaultPage,
      sort,
      order: oneOf(['asc', 'desc'] as const, searchParams.get('order')) ?? USER_SORT_DEFAULT_ORDER(sort),
    };
  }, [searchParams]);

  const update = useCallback(
    (change: Partial<UserListParams>, { replace }: { replace?: boolean } = {}) => {
      const typed = Object.keys(change).length === 1 && 'search' in change;
      const next = { ...params, ...change, page: 'page' in change ? change.page! : PAGING.defaultPage };
      patch(
        {
          search: next.search || undefined,
          status: next.status,
          role: next.role,
          page: next.page === PAGING.defaultPage ? undefined : String(next.page),
          sort: next.sort === DEFAULT_SORT ? undefined : next.sort,
          // Written only when it is not the order its sort starts in.
          order: next.order === USER_SORT_DEFAULT_ORDER(next.sort) ? undefined : next.order,
        },
        { replace: replace ?? typed },
      );
    },
    [params, patch],
  );

  return { params, update };
}
