import {
  creditsEndpoints as endpoints,
  PAGING,
  type AdjustmentInput,
  type AllocationInput,
  type AllocationReversalInput,
  type LedgerExportQuery,
} from '@console/domain';
import { infiniteQueryOptions, keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call, download } from '@/lib/api';
import { saveFile } from '@/lib/save-file';
import { invalidate } from './invalidation';
import { LIVE } from './live';
import { creditKeys } from './query-keys';

export const creditQueries = {
  /** An organization's ledger, newest first, a page at a time with its current balance (live); the next page follows `next_cursor`. */
  ledger: (filters: LedgerExportQuery) =>
    infiniteQueryOptions({
      queryKey: creditKeys.ledger(filters),
      queryFn: ({ pageParam, signal }) =>
        call(endpoints.ledger, { query: { ...filters, cursor: pageParam, limit: PAGING.ledgerPageSize } }, { signal }),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last) => last.next_cursor ?? undefined,
      // The balance and the rows stay on screen while another filter loads.
      placeholderData: keepPreviousData,
      ...LIVE,
    }),
  /** The newest entries of an organization, as many as the recent transactions card fetches (live). */
  recent: (organizationId: string) =>
    queryOptions({
      queryKey: creditKeys.recent(organizationId),
      queryFn: ({ signal }) =>
        call(endpoints.ledger, { query: { organization_id: organizationId, limit: PAGING.recentTransactionsFetch } }, { signal }),
      ...LIVE,
    }),
};

/** Both balances of a movement changed: the organizations (detail and lists), every ledger view, billing and the dashboard. */
function useCreditsMutation<T, R>(mutationFn: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => invalidate(queryClient, 'creditsMoved'),
  });
}

/** Moves credits to an active direct child; the key makes a retried submission count once. */
export const useAllocateCredits = () =>
  useCreditsMutation(({ input, idempotencyKey }: { input: AllocationInput; idempotencyKey: string }) =>
    call(endpoints.allocate, { body: input, headers: { 'idempotency-key': idempotencyKey } }),
  );

/** Gives an allocation back to the viewer's organization: both balances move, as an allocation's do. */
export const useReverseAllocation = () =>
  useCreditsMutation(({ transactionId, input }: { transactionId: string; input: AllocationReversalInput }) =>
    call(endpoints.reverseAllocation, { params: { transactionId }, body: input }),
  );

/** A house admin adds credits to (or removes them from) their own house. */
export const useAdjustBalance = () =>
  useCreditsMutation(async (input: AdjustmentInput) => (await call(endpoints.adjust, { body: input })).entry);

/** Downloads the CSV of the entries matching the filters (every page, not only the shown ones); resolves to the file name. */
export function useExportLedger() {
  return useMutation({
    mutationFn: async (filters: LedgerExportQuery) => {
      const { blob, filename } = await download(endpoints.exportLedger, { query: filters }, { headers: { Accept: 'text/csv' } });
      return saveFile(blob, filename ?? 'credit-ledger.csv');
    },
  });
}
