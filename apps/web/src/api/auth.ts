import { authEndpoints as endpoints, type PasswordBody, type RecoverBody } from '@console/domain';
import { useMutation } from '@tanstack/react-query';
import { call } from '@/lib/api';

/** Asks for a password reset link; the answer is the same whether the e-mail is known or not. */
export function useRecover() {
  return useMutation({ mutationFn: (body: RecoverBody) => call(endpoints.recover, { body }) });
}

/** Sets a new password with the recovery token of a reset link (a 401 means the token is bad). */
export function useUpdatePassword() {
  return useMutation({ mutationFn: (body: PasswordBody) => call(endpoints.password, { body }) });
}
