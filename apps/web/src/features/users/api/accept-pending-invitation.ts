import { MESSAGES, TIMING } from '@console/domain';
import { toast } from 'sonner';
import { forgetInvitation } from '@/features/auth/pending-invitation';
import { refreshSession } from '@/lib/api';
import { acceptInvitation } from './accept-invitation';

const TOAST_ID = 'pending-invitation';

/**
 * After sign-in: sends the pending invitation token with the new bearer (spec 1 section 4).
 * On success the token is dropped and the session refreshed (the organization and role
 * changed); on failure the reason is shown and the token kept.
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
