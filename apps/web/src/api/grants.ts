import { grantsEndpoints as endpoints } from '@console/domain';
import { queryOptions } from '@tanstack/react-query';
import { call } from '@/lib/api';
import { LIVE } from './live';
import { creditKeys } from './query-keys';

/** How far ahead the dashboard's Expiring soon looks, in days. */
export const EXPIRING_SOON_DAYS = 14;

/**
 * Credit grants. Their keys are under `credits`, so every credit movement made in the console
 * (allocations, reversals, adjustments) refreshes them; usage and expiry happen elsewhere, so
 * they are live.
 */
export const grantQueries = {
  /** An organization's balance in parts (open credits, spendable per agent, the soonest expiry) and its grants; `all` adds the used-up and expired ones. */
  list: (organizationId: string, all = false) =>
    queryOptions({
      queryKey: creditKeys.grants(organizationId, all),
      queryFn: ({ signal }) => call(endpoints.list, { params: { id: organizationId }, query: { all: all ? 'true' : 'false' } }, { signal }),
      ...LIVE,
    }),
  /** The grants of the caller's subtree that expire within `days`, soonest first. */
  expiring: (days = EXPIRING_SOON_DAYS) =>
    queryOptions({
      queryKey: creditKeys.expiringGrants(days),
      queryFn: ({ signal }) => call(endpoints.expiring, { query: { days } }, { signal }),
      ...LIVE,
    }),
};
