import type { Invitation } from '@console/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '@/lib/api';

/** DELETE /api/invitations/:id: the invitation's link stops working. */
export function revokeInvitation(id: string): Promise<Invitation> {
  return request<{ invitation: Invitation }>(`/api/invitations/${encodeURIComponent(id)}`, {
    method: 'DELETE',
  }).then((r) => r.invitation);
}

export function useRevokeInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeInvitation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['invitations'] }),
  });
}
