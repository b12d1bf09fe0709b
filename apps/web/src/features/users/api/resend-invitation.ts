import type { Invitation } from '@console/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '@/lib/api';

/** POST /api/invitations/:id/resend: mails a fresh link; the previous one stops working. */
export function resendInvitation(id: string): Promise<Invitation> {
  return request<{ invitation: Invitation }>(`/api/invitations/${encodeURIComponent(id)}/resend`, {
    method: 'POST',
  }).then((r) => r.invitation);
}

export function useResendInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendInvitation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['invitations'] }),
  });
}
