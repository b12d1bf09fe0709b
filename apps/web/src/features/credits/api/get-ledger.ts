import { PAGING, type EntryType, type LedgerPage } from '@console/domain';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { request } from '@/lib/api';
import { loadRetry } from '@/lib/load-retry';

/** The ledger filters the console sends; `from`/`to` are ISO date-times (`to` exclusive). */
export interface LedgerFilters {
  organization_id?: string;
  entry_type?: EntryType;
  from?: string;
  to?: string;
}

/** Query string of a ledger call, in a fixed order; empty filters are left out. */
export function ledgerSearchParams(filters: LedgerFilters, page: { cursor?: string; limit?: number } = {}): URLSearchParams {
  const params = new URLSearchParams();
  const values: [string, string | number | undefined][] = [
    ['organization_id', filters.organization_id],
    ['entry_type', filters.entry_type],
    ['from', filters.from],
    ['to', filters.to],
    ['cursor', page.cursor],
    ['limit', page.limit],
  ];
  for (const [key, value] of values) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  return params;
}

/** Everything under `credits` is refreshed after a movement of credits. */
export const creditsQueryKey = ['credits'] as const;
export const ledgerQueryKey = (filters: LedgerFilters) => ['credits', 'ledger', filters] as const;

/** One page of an organization's ledger, newest first, with its current balance. */
export function getLedger(filters: LedgerFilters, page: { cursor?: string; limit?: number } = {}): Promise<LedgerPage> {
  return request(`/api/credits/ledger?${ledgerSearchParams(filters, page)}`);
}

/** The ledger a page of 20 at a time; `fetchNextPage` follows `next_cursor`. */
export function useLedger(filters: LedgerFilters) {
  return useInfiniteQuery({
    queryKey: ledgerQueryKey(filters),
    queryFn: ({ pageParam }) => getLedger(filters, { cursor: pageParam, limit: PAGING.ledgerPageSize }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    // The balance and the rows stay on screen while another filter loads.
    placeholderData: keepPreviousData,
    ...loadRetry,
  });
}
