import { ORG_STATUSES, ORG_TYPES, PAGING, type OrgStatus, type OrgType } from '@console/domain';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

export interface ListParams {
  status: OrgStatus | undefined;
  org_type: OrgType | undefined;
  search: string;
  page: number;
  page_size: number;
}

export type ListParamsPatch = Partial<ListParams>;

function oneOf<T extends string>(values: readonly T[], value: string | null): T | undefined {
  return value !== null && (values as readonly string[]).includes(value) ? (value as T) : undefined;
}

/**
 * Filters and paging of an organization list, kept in the URL so a reload, a shared link
 * or the Back button shows the same page. `prefix` keeps two lists on one page apart.
 * A malformed value falls back to its default rather than failing the request.
 */
export function useListParams(prefix = '') {
  const [searchParams, setSearchParams] = useSearchParams();
  const key = useCallback((name: keyof ListParams) => `${prefix}${name}`, [prefix]);

  const params = useMemo<ListParams>(() => {
    const page = Number(searchParams.get(key('page')));
    const pageSize = Number(searchParams.get(key('page_size')));
    return {
      status: oneOf(ORG_STATUSES, searchParams.get(key('status'))),
      org_type: oneOf(ORG_TYPES, searchParams.get(key('org_type'))),
      search: searchParams.get(key('search')) ?? '',
      page: Number.isInteger(page) && page >= 1 ? page : PAGING.defaultPage,
      page_size: (PAGING.orgPageSizes as readonly number[]).includes(pageSize) ? pageSize : PAGING.orgPageSize,
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
              (name === 'page_size' && value === PAGING.orgPageSize);
            if (isDefault) next.delete(key(name as keyof ListParams));
            else next.set(key(name as keyof ListParams), String(value));
          }
          return next;
        },
        { replace: options.replace ?? typed },
      );
    },
    [setSearchParams, key],
  );

  const filtered = !!(params.status || params.org_type || params.search);
  return { params, update, filtered };
}
