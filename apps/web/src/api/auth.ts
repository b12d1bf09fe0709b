import { authEndpoints as endpoints, type PasswordBody, type RecoverBody } from '@console/domain';
import { useMutation } from '@tanstack/react-query';
import { call } from '@/lib/api';

/** Asks for a password reset link; the answer is the same whether the e-mail is known or not. */
export function useRecover() {
  return useMutation({ mutationFn: (body: RecoverBody) => call(endpoints.recover, { body }) });
}

/**
 * Sets a new password: with the recovery token of a reset link, or, signed in, with the
 * current password (a wrong one answers 400 with a message for `current_password`).
 */
export function useUpdatePassword() {
  return useMutation({ mutationFn: (body: PasswordBody) => call(endpoints.password, { body }) });
}

// Passkeys

/** The browser's options for a passkey sign-in: for a challenge's second step (its token), or passwordless. */
export const passkeyOptions = (challengeToken?: string) =>
  call(endpoints.passkeyOptions, { body: challengeToken ? { challenge_token: challengeToken } : {} });
