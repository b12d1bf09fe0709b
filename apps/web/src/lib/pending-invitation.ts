import { MESSAGES, TIMING, UI } from '@console/domain';
import { toast } from 'sonner';
import { acceptInvitation } from '@/api/invitations';
import { refreshSession } from './api';

/**
 * Keeps an invitation token from the login URL for this browser session and returns the
 * token now pending, if any: it is accepted right after the invitee signs in.
 */
export function rememberInvitation(token: string | null): string | null {
  if (token) sessionStorage.setItem(UI.pendingInvitationKey, token);
  return sessionStorage.getItem(UI.pendingInvitationKey);
}

/** Drops the pending invitation once it has been accepted. */
export function forgetInvitation(): void {
  sessionStorage.removeItem(UI.pendingInvitationKey);
}

const TOAST_ID = 'pending-invitation';

/**
 * After sign-in: sends the pending invitation token with the new bearer. On success the
 * token is dropped and the session refreshed (the organization and role changed); on
 * failure the reason is shown and the token kept.
 */
export async function acceptPendingInvitation(token: string): Promise<boolean> {
  const duration = TIMING.invitationToastMs;
  toast.loading(MESSAGES.invitationToasts.processing, { id: TOAST_ID, duration });
  try {
    const result = await acceptInvitation(token);
    // Signed in, the server answers accepted; registration means the invitation is for another e-mail.
    if (result.result === 'requires_registration') throw new Error(MESSAGES.invitations.otherAccount);
    if (result.result === 'requires_login') throw new Error(MESSAGES.auth.sessionExpired);
    forgetInvitation();
    await refreshSession();
    toast.success(MESSAGES.invitationToasts.accepted, {
      id: TOAST_ID,
      duration,
      description: result.organizationName,
    });
    return true;
  } catch (error) {
    toast.error(MESSAGES.invitationToasts.failed, {
      id: TOAST_ID,
      duration,
      description: error instanceof Error ? error.message : MESSAGES.generic.unknown,
    });
    return false;
  }
}
