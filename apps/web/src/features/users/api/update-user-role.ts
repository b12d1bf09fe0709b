import type { UserProfile } from '@console/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '@/lib/api';

/** PUT /api/users/:id/role: a role of the user's organization type. */
export function updateUserRole({ id, role }: { id: string; role: string }): Promise<UserProfile> {
  return request<{ user: UserProfile }>(`/api/users/${encodeURIComponent(id)}/role`, {
    method: 'PUT',
    body: { role },
  }).then((r) => r.user);
}

export function useUpdateUserRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUserRole,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['users'] }),
  });
}
