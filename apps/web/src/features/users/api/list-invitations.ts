import type { InvitationList, InvitationStatus } from '@console/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request } from '@/lib/api';
import { loadRetry } from '@/lib/load-retry';
import { queryString } from '@/lib/query-string';

export interface ListInvitationsQuery {
  organization_id?: string;
  status?: InvitationStatus;
  page?: number;
  page_size?: number;
}

export const invitationsQueryKey = (query: ListInvitationsQuery) => ['invitations', 'list', query] as const;

/** Invitations of an organization in scope, newest first. */
export function listInvitations(query: ListInvitationsQuery): Promise<InvitationList> {
  return request(
    `/api/invitations${queryString({
      organization_id: query.organization_id,
      status: query.status,
      page: query.page,
      page_size: query.page_size,
    })}`,
  );
}

export function useInvitations(query: ListInvitationsQuery, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: invitationsQueryKey(query),
    queryFn: () => listInvitations(query),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
    ...loadRetry,
  });
}
