import {
  agentsEndpoints,
  alertLinesEndpoints,
  billingEndpoints as endpoints,
  type AlertLineInput,
  type LowBalanceThresholdInput,
  type SpendControlsInput,
} from '@console/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api';
import { invalidate } from './invalidation';
import { LIVE } from './live';
import { billingKeys } from './query-keys';

export const billingQueries = {
  /** Billing settings, active agents, the allowed range of the limit and what the caller may change. */
  settings: (organizationId: string) =>
    queryOptions({
      queryKey: billingKeys.settings(organizationId),
      queryFn: ({ signal }) => call(endpoints.get, { params: { id: organizationId } }, { signal }),
      // The balance and the active agents move with usage: refreshed while visible.
      ...LIVE,
    }),
  /** An organization's limit, its direct children's limits and the capacity left. */
  capacity: (organizationId: string) =>
    queryOptions({
      queryKey: billingKeys.capacity(organizationId),
      queryFn: ({ signal }) => call(endpoints.capacity, { params: { id: organizationId } }, { signal }),
    }),
  /** The monthly spend cap over the organization's subtree with this month's spend, and its automatic top-up. */
  spendControls: (organizationId: string) =>
    queryOptions({
      queryKey: billingKeys.spendControls(organizationId),
      queryFn: ({ signal }) => call(endpoints.spendControls, { params: { id: organizationId } }, { signal }),
      // This month's spend moves with usage, and top-ups with the balance.
      ...LIVE,
    }),
};

/** Sets a direct child's monthly spend cap and automatic top-up (its parent's admins); null removes either. */
export function useSetSpendControls(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SpendControlsInput) => call(endpoints.setSpendControls, { params: { id: organizationId }, body }),
    onSuccess: async (controls) => {
      queryClient.setQueryData(billingKeys.spendControls(organizationId), controls);
      await invalidate(queryClient, 'spendControlsSet');
    },
  });
}

/** Sets an organization's activated agent limit; the server checks the parent's capacity and the children's total. */
export function useUpdateAgentLimit(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (limit: number) =>
      call(endpoints.setAgentLimit, { params: { id: organizationId }, body: { activated_agent_limit: limit } }),
    onSuccess: (billing) => {
      queryClient.setQueryData(billingKeys.settings(organizationId), billing);
      void invalidate(queryClient, 'agentLimitSet');
    },
  });
}

/**
 * Sets the organization's low-balance alert threshold (its own admins). Every view that warns
 * about a low balance reads the threshold: billing, the ledger, the organization and the dashboard.
 */
export function useSetLowBalanceThreshold(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (threshold: LowBalanceThresholdInput['low_balance_threshold']) =>
      call(agentsEndpoints.setLowBalanceThreshold, { params: { id: organizationId }, body: { low_balance_threshold: threshold } }),
    onSuccess: async (billing) => {
      queryClient.setQueryData(billingKeys.settings(organizationId), billing);
      await invalidate(queryClient, 'lowBalanceThresholdSet', organizationId);
    },
  });
}

/** The organization's alert lines, with whether the caller may change them. */
export const alertLineQueries = {
  list: (organizationId: string) =>
    queryOptions({
      queryKey: billingKeys.alertLines(organizationId),
      queryFn: ({ signal }) => call(alertLinesEndpoints.list, { params: { id: organizationId } }, { signal }),
    }),
};

/** Adds an alert line (without `lineId`) or changes one; the threshold line moves the threshold, so billing and the dashboard refresh too. */
export function useSaveAlertLine(organizationId: string, lineId?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AlertLineInput) =>
      lineId
        ? call(alertLinesEndpoints.update, { params: { id: organizationId, lineId }, body })
        : call(alertLinesEndpoints.create, { params: { id: organizationId }, body }),
    onSuccess: () => invalidate(queryClient, 'alertLinesChanged'),
  });
}

/** Deletes an alert line. */
export function useDeleteAlertLine(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (lineId: string) => call(alertLinesEndpoints.remove, { params: { id: organizationId, lineId } }),
    onSuccess: () => invalidate(queryClient, 'alertLinesChanged'),
  });
}
