import type { AllocationResult } from '@console/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '@/lib/api';
import { creditsQueryKey } from './get-ledger';

export interface AllocationRequest {
  from_org_id: string;
  to_org_id: string;
  /** An exact decimal string, e.g. "12.50". */
  amount: string;
  notes?: string | null;
}

/** Moves credits to an active direct child; the key makes a retried submission count once. */
export function allocateCredits(input: AllocationRequest, idempotencyKey: string): Promise<AllocationResult> {
  return request('/api/credits/allocations', {
    method: 'POST',
    body: input,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

export function useAllocateCredits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, idempotencyKey }: { input: AllocationRequest; idempotencyKey: string }) =>
      allocateCredits(input, idempotencyKey),
    onSuccess: async () => {
      // Both balances changed: the organizations (detail and lists) and every ledger view.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['organizations'] }),
        queryClient.invalidateQueries({ queryKey: creditsQueryKey }),
      ]);
    },
  });
}
