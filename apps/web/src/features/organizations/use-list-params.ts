import {
  ORG_ATTENTION_FILTERS,
  ORG_SORT_DEFAULT_ORDER,
  ORG_SORT_KEYS,
  ORG_STATUSES,
  ORG_TYPES,
  PAGING,
  SORT_ORDERS,
  type OrgAttentionFilter,
  type OrgSortKey,
  type OrgStatus,
  type OrgType,
  type SortOrder,
} from '@console/domain';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

export interface ListParams {
  status: OrgStatus | undefined;
  org_type: OrgType | undefined;
  attention: OrgAttentionFilter | undefined;
  search: string;
  page: number;
  page_size: number;
  sort: OrgSortKey;
  order: SortOrder;
}

export type ListParamsPatch = Partial<ListParams>;

function oneOf<T extends string>(values: readonly T[], value: string | null): T | undefined {
  return value !== null && (values as readonly string[]).includes(value) ? (value as T) : undefined;
}

/**
 * Filters, sort and paging of an organization list, kept in the URL so a reload, a shared link
 * or the Back button shows the same page. `prefix` keeps two lists on one page apart.
 * A malformed value falls back to its default rather than failing the request.
 */
export function useListParams(prefix = '') {
  const [searchParams, setSearchParams] = useSearchParams();
  const key = useCallback((name: keyof ListParams) => `${prefix}${name}`, [prefix]);

  const params = useMemo<ListParams>(() => {
    const page = Number(searchParams.get(key('page')));
    const pageSize = Number(searchParams.get(key('page_size')));
    const sort = oneOf(ORG_SORT_KEYS, searchParams.get(key('sort'))) ?? 'name';
    return {
      status: oneOf(ORG_STATUSES, searchParams.get(key('status'))),
      org_type: oneOf(ORG_TYPES, searchParams.get(key('org_type'))),
      attention: oneOf(ORG_ATTENTION_FILTERS, searchParams.get(key('attention'))),
      search: searchParams.get(key('search')) ?? '',
      page: Number.isInteger(page) && page >= 1 ? page : PAGING.defaultPage,
      page_size: (PAGING.orgPageSizes as readonly number[]).includes(pageSize) ? pageSize : PAGING.orgPageSize,
      sort,
      order: oneOf(SORT_ORDERS, searchParams.get(key('order'))) ?? ORG_SORT_DEFAULT_ORDER[sort],
    };
  }, [searchParams, key]);

  /**
   * Applies a change; any change other than the page itself goes back to page 1. A change
   * adds a history entry so Back restores the list, except the typed search (and `replace`,
   * for corrections such as a page past the last), which replaces the current entry.
   */
  const update = useCallback(
    (patch: ListParamsPatch, options: { replace?: boolean } = {}) => {
      const typed = Object.keys(patch).length === 1 && 'search' in patch;
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          const withPage: ListParamsPatch = 'page' in patch ? patch : { ...patch, page: PAGING.defaultPage };
          for (const [name, value] of Object.entries(withPage)) {
            const isDefault =
              value === undefined ||
              value === '' ||
              (name === 'page' && value === PAGING.defaultPage) ||
              (name === 'page_size' && value === PAGING.orgPageSize) ||
              (name === 'sort' && value === 'name');
            if (isDefault) next.delete(key(name as keyof ListParams));
            else next.set(key(name as keyof ListParams), String(value));
          }
          // The order is written only when it is not the one its sort key starts in.
          const sort = oneOf(ORG_SORT_KEYS, next.get(key('sort'))) ?? 'name';
          if (next.get(key('order')) === ORG_SORT_DEFAULT_ORDER[sort]) next.delete(key('order'));
          return next;
        },
        { replace: options.replace ?? typed },
      );
    },
    [setSearchParams, key],
  );

  const filtered = !!(params.status || params.org_type || params.attention || params.search);
  return { params, update, filtered };
}

/** The sort as the list endpoint takes it: left out for the server's own order (name, A to Z). */
export function sortQuery({ sort, order }: Pick<ListParams, 'sort' | 'order'>): { sort?: OrgSortKey; order?: SortOrder } {
  return sort === 'name' && order === 'asc' ? {} : { sort, order };
}
