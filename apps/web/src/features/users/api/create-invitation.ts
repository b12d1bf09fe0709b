import type { CreateInvitationInput, Invitation } from '@console/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '@/lib/api';

/** POST /api/invitations: the link is mailed to the invitee. */
export function createInvitation(body: CreateInvitationInput): Promise<Invitation> {
  return request<{ invitation: Invitation }>('/api/invitations', { method: 'POST', body }).then((r) => r.invitation);
}

export function useCreateInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInvitation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['invitations'] }),
  });
}
