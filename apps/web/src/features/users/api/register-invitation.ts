import type { Session } from '@console/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '@/lib/api';
import { sessionStore } from '@/lib/session-store';

/** POST /api/invitations/register: creates the invited account and returns its session. */
export function registerInvitation(body: { token: string; password: string }): Promise<Session> {
  return request<Session>('/api/invitations/register', { method: 'POST', body, refreshOn401: false });
}

/** Registers and signs the new account in, as sign-in does (lib/auth.tsx). */
export function useRegisterInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerInvitation,
    onSuccess: (session) => {
      // Cached answers belonged to whoever was signed in before.
      queryClient.clear();
      sessionStore.set(session);
    },
  });
}
