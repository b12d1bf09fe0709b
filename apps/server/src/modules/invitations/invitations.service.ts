import { createInvitationAcceptance } from './accept.ts';
import { createInvitationCreate } from './create.ts';
import { createInvitationList } from './list.ts';
import { createInvitationManagement } from './manage.ts';
import type { InvitationsDeps } from './queries.ts';

export { InvitationUnusableError } from './queries.ts';

/** The invitations service: invitation tokens, resend, copy link, revoke, acceptance and registration. */
export function createInvitationsService(deps: InvitationsDeps) {
  const { create } = createInvitationCreate(deps);
  const { list } = createInvitationList(deps);
  const { resend, link, revoke } = createInvitationManagement(deps);
  const { accept, register } = createInvitationAcceptance(deps);
  return { create, list, resend, link, revoke, accept, register };
}

export type InvitationsService = ReturnType<typeof createInvitationsService>;
