import { roleLabel, TIMING, UI, type Membership } from '@console/domain';
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
const CONFIRM_ID = 'pending-invitation-confirm';

/**
 * Asks whether to leave one organization for another, naming both sides: true for Join;
 * Cancel, or closing the question, declines.
 */
function confirmMove(from: Membership, to: Membership): Promise<boolean> {
  const m = MESSAGES.invitations;
  return new Promise((resolve) => {
    toast(m.confirmTitle, {
      id: CONFIRM_ID,
      duration: Infinity,
      description: m.confirmMove(from.organizationName, roleLabel(from.role), to.organizationName, roleLabel(to.role)),
      action: { label: m.join, onClick: () => resolve(true) },
      cancel: { label: m.cancel, onClick: () => resolve(false) },
      onDismiss: () => resolve(false),
    });
  });
}

/**
 * After sign-in: sends the pending invitation token with the new bearer. Joining another
 * organization is asked first, with what is left and what is joined; only Join sends the
 * confirmation. On success the token is dropped and the session refreshed (the
 * organization and role changed); on Cancel the token is dropped and nothing changes; on
 * failure the reason is shown and the token kept.
 */
export async function acceptPendingInvitation(token: string): Promise<boolean> {
  const duration = TIMING.invitationToastMs;
  toast.loading(MESSAGES.invitationToasts.processing, { id: TOAST_ID, duration });
  try {
    let result = await acceptInvitation(token);
    if (result.result === 'requires_confirmation') {
      toast.dismiss(TOAST_ID);
      const { from, to } = result;
      if (!(await confirmMove(from, to))) {
        forgetInvitation(token);
        toast.info(MESSAGES.invitations.declinedTitle, {
          id: TOAST_ID,
          duration,
          description: MESSAGES.invitations.declined(from.organizationName),
        });
        return false;
      }
      toast.loading(MESSAGES.invitationToasts.processing, { id: TOAST_ID, duration });
      result = await acceptInvitation(token, true);
    }
    // Signed in, the server answers accepted; registration means the invitation is for another e-mail.
    if (result.result === 'requires_registration') throw new Error(MESSAGES.invitations.otherAccount);
    if (result.result === 'requires_login') throw new Error(MESSAGES.auth.sessionExpired);
    if (result.result === 'requires_confirmation') throw new Error(MESSAGES.generic.unknown);
    forgetInvitation(token);
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
