import { UI } from '@console/domain';

/**
 * Keeps an invitation token from the login URL for this browser session (spec 1 section 4)
 * and returns the token now pending, if any.
 */
export function rememberInvitation(token: string | null): string | null {
  if (token) sessionStorage.setItem(UI.pendingInvitationKey, token);
  return sessionStorage.getItem(UI.pendingInvitationKey);
}

/** Drops the pending invitation once it has been accepted. */
export function forgetInvitation(): void {
  sessionStorage.removeItem(UI.pendingInvitationKey);
}
