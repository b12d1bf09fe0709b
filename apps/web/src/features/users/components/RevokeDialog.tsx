import { MESSAGES, type Invitation } from '@console/domain';
import { toast } from 'sonner';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { buttonVariants } from '@/components/ui/button';
import { useRevokeInvitation } from '../api/revoke-invitation';

const t = MESSAGES.teamPages;

/** Revoke with the spec's confirmation; also used by the invitations list. */
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
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{t.revoke}</AlertDialogTitle>
          <AlertDialogDescription>
            {MESSAGES.invitations.revokeConfirm(invitation.email)} {MESSAGES.invitations.revokeWarning}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction
            className={buttonVariants({ variant: 'destructive' })}
            onClick={() =>
              revoke.mutate(invitation.id, {
                onSuccess: () => toast.success(MESSAGES.invitations.revokedToast),
                onError: (error) => toast.error(MESSAGES.invitations.revokeFailed, { description: error.message }),
              })
            }
          >
            Revoke
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
