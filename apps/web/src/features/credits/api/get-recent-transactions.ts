import { PAGING } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { getLedger } from './get-ledger';
import { loadRetry } from '@/lib/load-retry';

export const recentTransactionsQueryKey = (organizationId: string) => ['credits', 'recent', organizationId] as const;

/** The newest entries of an organization for the Settings card: 5 fetched (spec 2 section 9). */
export function getRecentTransactions(organizationId: string) {
  return getLedger({ organization_id: organizationId }, { limit: PAGING.recentTransactionsFetch });
}

export function useRecentTransactions(organizationId: string) {
  return useQuery({
    queryKey: recentTransactionsQueryKey(organizationId),
    queryFn: () => getRecentTransactions(organizationId),
    enabled: !!organizationId,
    ...loadRetry,
  });
}
