import { type Invitation } from '@console/domain';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { useRevokeInvitation } from '@/api/invitations';
import { MESSAGES } from '../wording';
import { announce } from '@/lib/announce';

/** Revoke after a confirmation that says the link stops working; used by the users panel and the invitations list. */
export function RevokeDialog({
  invitation,
  open,
  onOpenChange,
}: {
  invitation: Invitation;
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const revoke = useRevokeInvitation();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={MESSAGES.teamPages.revoke}
      description={`${MESSAGES.invitations.revokeConfirm(invitation.email)} ${MESSAGES.invitations.revokeWarning}`}
      confirmLabel="Revoke"
      destructive
      onConfirm={() => announce(revoke.mutateAsync(invitation.id), MESSAGES.invitations.revokedToast, MESSAGES.invitations.revokeFailed)}
    />
  );
}
