import { invitationsEndpoints as endpoints, type CreateInvitationInput, type ListInvitationsQuery } from '@console/domain';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api';
import { sessionStore } from '@/lib/session-store';
import { invalidate } from './invalidation';
import { invitationKeys } from './query-keys';

export const invitationQueries = {
  /** Invitations of an organization in scope, newest first. */
  list: (query: ListInvitationsQuery) =>
    queryOptions({
      queryKey: invitationKeys.list(query),
      queryFn: ({ signal }) => call(endpoints.list, { query }, { signal }),
      placeholderData: keepPreviousData,
    }),
};

/**
 * Reads an invitation token, with the session's bearer when signed in: the invitee must
 * register, sign in first, or confirm leaving their organization for the invitation's.
 * Only with `confirm` does a signed-in invitee move.
 */
export function acceptInvitation(token: string, confirm = false) {
  return call(endpoints.accept, { body: confirm ? { token, confirm } : { token } });
}

/** An invitation changed: the invitation lists, and the dashboard's team counts (pending people). */
function useInvitationsMutation<T, R>(mutationFn: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => invalidate(queryClient, 'invitationsChanged'),
  });
}

/** Invites a person; the link is mailed to them. */
export const useCreateInvitation = () =>
  useInvitationsMutation(async (body: CreateInvitationInput) => (await call(endpoints.create, { body })).invitation);

/** Mails a fresh link; the previous one stops working. */
export const useResendInvitation = () => useInvitationsMutation((id: string) => call(endpoints.resend, { params: { id } }));

/** Only a hash of the token is stored, so this makes a fresh link, and the link mailed before stops working. */
export const useInvitationLink = () => useInvitationsMutation((id: string) => call(endpoints.link, { params: { id } }));

/** The invitation's link stops working. */
export const useRevokeInvitation = () => useInvitationsMutation((id: string) => call(endpoints.revoke, { params: { id } }));

/** Creates the invited account and signs it in, as sign-in does. */
export function useRegisterInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { token: string; password: string }) => call(endpoints.register, { body }),
    onSuccess: (session) => {
      // Cached answers belonged to whoever was signed in before.
      queryClient.clear();
      sessionStore.set(session);
    },
  });
}
