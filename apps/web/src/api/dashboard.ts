import { dashboardEndpoints as endpoints, TIMING } from '@console/domain';
import { queryOptions } from '@tanstack/react-query';
import { call } from '@/lib/api';
import { LIVE } from './live';
import { dashboardKeys } from './query-keys';

export const dashboardQueries = {
  /** Every dashboard figure of one organization: live (balance, usage), and fresh for the long stale time otherwise. */
  figures: (organizationId: string | undefined) =>
    queryOptions({
      queryKey: dashboardKeys.figures(organizationId),
      queryFn: ({ signal }) => call(endpoints.get, { query: { organization_id: organizationId } }, { signal }),
      staleTime: TIMING.longStaleMs,
      ...LIVE,
    }),
};
