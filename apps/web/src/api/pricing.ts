import { pricingEndpoints as endpoints } from '@console/domain';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api';
import { invalidate } from './invalidation';
import { LIVE } from './live';
import { pricingKeys } from './query-keys';

export const pricingQueries = {
  /** The own price book: per agent type what the organization pays, what its children pay and the margin. */
  book: (organizationId: string) =>
    queryOptions({
      queryKey: pricingKeys.book(organizationId),
      queryFn: ({ signal }) => call(endpoints.book, { params: { id: organizationId } }, { signal }),
    }),
  /** The book's changes, newest first, a page at a time; the page shown stays while the next one loads. */
  history: (organizationId: string, page: number) =>
    queryOptions({
      queryKey: pricingKeys.history(organizationId, page),
      queryFn: ({ signal }) => call(endpoints.history, { params: { id: organizationId }, query: { page } }, { signal }),
      placeholderData: keepPreviousData,
    }),
  /** The changes of what the organization pays, by the catalog or a seller above it, newest first. */
  paid: (organizationId: string) =>
    queryOptions({
      queryKey: pricingKeys.paid(organizationId),
      queryFn: ({ signal }) => call(endpoints.paidHistory, { params: { id: organizationId } }, { signal }),
    }),
  /** What the organization earned this month from its children's usage: it grows with their usage, so it is live. */
  earnings: (organizationId: string) =>
    queryOptions({
      queryKey: pricingKeys.earnings(organizationId),
      queryFn: ({ signal }) => call(endpoints.earnings, { params: { id: organizationId } }, { signal }),
      ...LIVE,
    }),
  /** The prices set for single direct children, the children they can be set for, and whether the viewer may. */
  childPrices: (organizationId: string) =>
    queryOptions({
      queryKey: pricingKeys.children(organizationId),
      queryFn: ({ signal }) => call(endpoints.childPrices, { params: { id: organizationId } }, { signal }),
    }),
};

/**
 * Sets what the organization's direct children pay for one agent type (null: pass the own price
 * through). The book, its history and everything showing the children's prices are asked again.
 */
export function useSetPrice(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ agentTypeId, price }: { agentTypeId: string; price: string | null }) =>
      (await call(endpoints.setPrice, { params: { id: organizationId, agentTypeId }, body: { price } })).item,
    onSuccess: () => invalidate(queryClient, 'priceSet'),
  });
}

/** Refreshes everything a price for one child changes: the prices, and the children's prices wherever they show. */
function useChildPriceChanged() {
  const queryClient = useQueryClient();
  return () => invalidate(queryClient, 'childPriceSet');
}

/** Sets what one direct child (and its subtree) pays for one agent type, in place of the book. */
export function useSetChildPrice(organizationId: string) {
  const changed = useChildPriceChanged();
  return useMutation({
    mutationFn: ({ childId, agentTypeId, price }: { childId: string; agentTypeId: string; price: string }) =>
      call(endpoints.setChildPrice, { params: { id: organizationId, childId, agentTypeId }, body: { price } }),
    onSuccess: changed,
  });
}

/** Removes a child price: the child pays the book again (the history keeps the price). */
export function useClearChildPrice(organizationId: string) {
  const changed = useChildPriceChanged();
  return useMutation({
    mutationFn: ({ childId, agentTypeId }: { childId: string; agentTypeId: string }) =>
      call(endpoints.clearChildPrice, { params: { id: organizationId, childId, agentTypeId } }),
    onSuccess: changed,
  });
}
