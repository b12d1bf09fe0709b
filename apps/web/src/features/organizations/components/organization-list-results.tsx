import { ORG_SORT_DEFAULT_ORDER, type OrganizationList, type OrgSortKey } from '@console/domain';
import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect } from 'react';
import { QueryError } from '@/components/query-error';
import type { ListParams, ListParamsPatch } from '../use-list-params';
import { OrganizationsTable } from './organizations-table';
import { PaginationControls } from './pagination-controls';
import { MESSAGES } from '../wording';

interface OrganizationListResultsProps {
  label: string;
  query: UseQueryResult<OrganizationList>;
  params: Pick<ListParams, 'page' | 'page_size' | 'sort' | 'order'>;
  onChange(patch: ListParamsPatch, options?: { replace?: boolean }): void;
  base: string;
  emptyText?: string;
}

/** One page of a server-paged organization list, or why it could not load (403: Access Denied). */
export function OrganizationListResults({ label, query, params, onChange, base, emptyText }: OrganizationListResultsProps) {
  // A page past the last (an old link, a shorter list) shows the last page instead, in place.
  const lastPage = query.data?.total_pages ?? 0;
  // Until that page has loaded, the empty answer past the end shows as loading, not as "no organizations".
  const waiting = (lastPage > 0 && params.page > lastPage) || (query.isPlaceholderData && query.data?.organizations.length === 0);
  useEffect(() => {
    if (lastPage > 0 && params.page > lastPage) onChange({ page: lastPage }, { replace: true });
  }, [params.page, lastPage, onChange]);

  if (query.isError) return <QueryError error={query.error} title={MESSAGES.organizations.failedToLoad} onRetry={query.refetch} />;
  const list = query.data;
  return (
    <section className="space-y-4" aria-label={label} aria-busy={query.isFetching || undefined}>
      <OrganizationsTable
        label={label}
        organizations={waiting ? undefined : list?.organizations}
        base={base}
        emptyText={emptyText}
        sort={{ sort: params.sort, order: params.order }}
        onSort={(sort: OrgSortKey) =>
          onChange({
            sort,
            order: sort === params.sort ? (params.order === 'asc' ? 'desc' : 'asc') : ORG_SORT_DEFAULT_ORDER[sort],
          })
        }
        onSortChange={(next) => onChange(next)}
      />
      {!!list?.total && !waiting && (
        <PaginationControls
          page={params.page}
          pageSize={params.page_size}
          total={list.total}
          totalPages={list.total_pages}
          onPageChange={(page) => onChange({ page })}
          onPageSizeChange={(page_size) => onChange({ page_size })}
        />
      )}
    </section>
  );
}
