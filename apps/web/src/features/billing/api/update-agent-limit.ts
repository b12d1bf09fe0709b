import type { BillingResponse } from '@console/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '@/lib/api';
import { billingQueryKey } from './get-billing';

/** Sets an organization's activated agent limit; the server checks the parent's capacity and the children's total. */
export function updateAgentLimit(organizationId: string, limit: number): Promise<BillingResponse> {
  return request<BillingResponse>(`/api/organizations/${encodeURIComponent(organizationId)}/agent-limit`, {
    method: 'PUT',
    body: { activated_agent_limit: limit },
  });
}

export function useUpdateAgentLimit(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (limit: number) => updateAgentLimit(organizationId, limit),
    onSuccess: (billing) => {
      queryClient.setQueryData(billingQueryKey(organizationId), billing);
      void queryClient.invalidateQueries({ queryKey: ['billing', 'capacity'] });
      void queryClient.invalidateQueries({ queryKey: ['organizations'] });
    },
  });
}
