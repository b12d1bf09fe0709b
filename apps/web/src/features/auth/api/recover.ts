import type { RecoverBody } from '@console/domain';
import { useMutation } from '@tanstack/react-query';
import { request } from '@/lib/api';

/** Asks for a password reset link; the answer is the same whether the e-mail is known or not. */
export function recover(body: RecoverBody): Promise<{ message: string }> {
  return request('/api/auth/recover', { method: 'POST', body, refreshOn401: false });
}

export function useRecover() {
  return useMutation({ mutationFn: recover });
}
