import type { Invitation } from '@console/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '@/lib/api';

/**
 * POST /api/invitations/:id/link: only a hash of the token is stored, so this makes a fresh
 * link, and the link mailed before stops working.
 */
export function createInvitationLink(id: string): Promise<{ invitation: Invitation; link: string }> {
  return request(`/api/invitations/${encodeURIComponent(id)}/link`, { method: 'POST' });
}

export function useInvitationLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInvitationLink,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['invitations'] }),
  });
}
