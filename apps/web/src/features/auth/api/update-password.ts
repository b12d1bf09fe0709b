import type { PasswordBody } from '@console/domain';
import { useMutation } from '@tanstack/react-query';
import { request } from '@/lib/api';

/** Sets a new password with the recovery token of a reset link (a 401 means the token is bad). */
export function updatePassword(body: PasswordBody): Promise<{ ok: true }> {
  return request('/api/auth/password', { method: 'POST', body, refreshOn401: false });
}

export function useUpdatePassword() {
  return useMutation({ mutationFn: updatePassword });
}
