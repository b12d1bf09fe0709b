import { MESSAGES, type OrganizationList } from '@console/domain';
import type { UseQueryResult } from '@tanstack/react-query';
import { QueryError } from '@/components/query-error';
import type { ListParams, ListParamsPatch } from '../use-list-params';
import { OrganizationsTable } from './OrganizationsTable';
import { PaginationControls } from './PaginationControls';

interface OrganizationListResultsProps {
  label: string;
  query: UseQueryResult<OrganizationList>;
  params: Pick<ListParams, 'page' | 'page_size'>;
  onChange(patch: ListParamsPatch): void;
  base: string;
  emptyText?: string;
}

/** One page of a server-paged organization list, or why it could not load (403: Access Denied). */
export function OrganizationListResults({ label, query, params, onChange, base, emptyText }: OrganizationListResultsProps) {
  if (query.isError) return <QueryError error={query.error} title={MESSAGES.organizations.failedToLoad} onRetry={query.refetch} />;
  const list = query.data;
  return (
    <section className="space-y-4" aria-label={label} aria-busy={query.isFetching || undefined}>
      <OrganizationsTable label={label} organizations={list?.organizations} base={base} emptyText={emptyText} />
      {!!list?.total && (
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
