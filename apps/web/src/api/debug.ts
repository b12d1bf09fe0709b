import { debugEndpoints as endpoints, organizationsEndpoints, type OrgStatus } from '@console/domain';
import { queryOptions } from '@tanstack/react-query';
import { call } from '@/lib/api';
import { debugKeys } from './query-keys';

export const debugQueries = {
  /** The last messages of the mail outbox (the server refuses all but house admins). */
  outbox: () => queryOptions({ queryKey: debugKeys.outbox, queryFn: ({ signal }) => call(endpoints.outbox, {}, { signal }) }),
  /** The direct children of an organization checked against the descendant procedure; always read afresh. */
  verifyChildren: (organizationId: string) =>
    queryOptions({
      queryKey: debugKeys.verifyChildren(organizationId),
      queryFn: ({ signal }) => call(organizationsEndpoints.verifyChildren, { params: { id: organizationId } }, { signal }),
      staleTime: 0,
    }),
  /** How many direct children have a status: the total of a list call with the smallest page. */
  childCount: (organizationId: string, status: OrgStatus) =>
    queryOptions({
      queryKey: debugKeys.childCount(organizationId, status),
      queryFn: async ({ signal }) => {
        const query = { view: 'children', organization_id: organizationId, status, page_size: 10 } as const;
        return (await call(organizationsEndpoints.list, { query }, { signal })).total;
      },
    }),
};
