import type { UpdateMeInput, UserProfile } from '@console/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '@/lib/api';

/** PATCH /api/users/me: your own names and locale. */
export function updateMe(body: UpdateMeInput): Promise<UserProfile> {
  return request<{ user: UserProfile }>('/api/users/me', { method: 'PATCH', body }).then((r) => r.user);
}

export function useUpdateMe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMe,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['users'] }),
  });
}
