import type { UpdateUserInput, UserProfile } from '@console/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '@/lib/api';

/** PATCH /api/users/:id: names, locale and (admins) the status of another user. */
export function updateUser({ id, body }: { id: string; body: UpdateUserInput }): Promise<UserProfile> {
  return request<{ user: UserProfile }>(`/api/users/${encodeURIComponent(id)}`, { method: 'PATCH', body }).then(
    (r) => r.user,
  );
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['users'] }),
  });
}
