import type { LedgerEntry } from '@console/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '@/lib/api';
import { creditsQueryKey } from './get-ledger';

export interface AdjustmentRequest {
  direction: 'increase' | 'decrease';
  /** An exact decimal string, e.g. "1000.00". */
  amount: string;
  reason: string;
}

/** A house admin adds credits to (or removes them from) their own house. */
export async function adjustBalance(input: AdjustmentRequest): Promise<LedgerEntry> {
  const { entry } = await request<{ entry: LedgerEntry }>('/api/credits/adjustments', { method: 'POST', body: input });
  return entry;
}

export function useAdjustBalance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: adjustBalance,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['organizations'] }),
        queryClient.invalidateQueries({ queryKey: creditsQueryKey }),
      ]);
    },
  });
}
