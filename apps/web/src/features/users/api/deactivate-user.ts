import type { UserProfile } from '@console/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '@/lib/api';

/** DELETE /api/users/:id: sets the user inactive. */
export function deactivateUser(id: string): Promise<UserProfile> {
  return request<{ user: UserProfile }>(`/api/users/${encodeURIComponent(id)}`, { method: 'DELETE' }).then(
    (r) => r.user,
  );
}

export function useDeactivateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deactivateUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['users'] }),
  });
}
