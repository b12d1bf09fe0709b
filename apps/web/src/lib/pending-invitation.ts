import { TIMING, UI } from '@console/domain';
import { toast } from 'sonner';
import { acceptInvitation } from '@/api/invitations';
import { refreshSession } from './api';
import { MESSAGES } from '@/lib/wording';

/**
 * Keeps an invitation token from the login URL for this browser session and returns the
 * token now pending, if any: it is taken up right after the invitee signs in.
 */
export function rememberInvitation(token: string | null): string | null {
  if (token) sessionStorage.setItem(UI.pendingInvitationKey, token);
  return sessionStorage.getItem(UI.pendingInvitationKey);
}

/** Drops the pending invitation once it has been accepted or declined (only this one, when a token is given). */
export function forgetInvitation(token?: string | null): void {
  if (token && sessionStorage.getItem(UI.pendingInvitationKey) !== token) return;
  sessionStorage.removeItem(UI.pendingInvitationKey);
}

const TOAST_ID = 'pending-invitation';

/**
 * After sign-in: sends the pending invitation token with the new bearer. On success the
 * token is dropped and the session refreshed (the organization and role changed); on
 * failure the reason is shown and the token kept. Joining another organization means
 * leaving one's own, which only the invitation page asks, with what is left and what is
 * joined: 'confirm' sends the person there, the token still pending.
 */
export async function acceptPendingInvitation(token: string): Promise<'accepted' | 'confirm' | 'failed'> {
  const duration = TIMING.invitationToastMs;
  toast.loading(MESSAGES.invitationToasts.processing, { id: TOAST_ID, duration });
  try {
    const result = await acceptInvitation(token);
    if (result.result === 'requires_confirmation') {
      toast.dismiss(TOAST_ID);
      return 'confirm';
    }
    // Signed in, the server answers accepted; registration means the invitation is for another e-mail.
    if (result.result === 'requires_registration') throw new Error(MESSAGES.invitations.otherAccount);
    if (result.result === 'requires_login') throw new Error(MESSAGES.auth.sessionExpired);
    forgetInvitation(token);
    await refreshSession();
    toast.success(MESSAGES.invitationToasts.accepted, {
      id: TOAST_ID,
      duration,
      description: result.organizationName,
    });
    return 'accepted';
  } catch (error) {
    toast.error(MESSAGES.invitationToasts.failed, {
      id: TOAST_ID,
      duration,
      description: error instanceof Error ? error.message : MESSAGES.generic.unknown,
    });
    return 'failed';
  }
}
