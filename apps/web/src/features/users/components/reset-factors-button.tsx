import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { useResetUserFactors } from '@/api/users';
import { MESSAGES } from '@/lib/wording';

const u = MESSAGES.users;

/**
 * Removes every second factor of a person who lost them, after a confirmation that says what
 * happens: the app and recovery codes go, every session ends, the person and their admins are
 * mailed, and the person signs in with their password alone until they set up a factor again.
 */
export function ResetFactorsButton({ userId, name }: { userId: string; name: string }) {
  const reset = useResetUserFactors();
  const [open, setOpen] = useState(false);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      title={u.resetFactorsTitle}
      description={u.resetFactorsConfirm(name)}
      confirmLabel={u.resetFactors}
      destructive
      trigger={
        <Button variant="outline" disabled={reset.isPending}>
          <KeyRound aria-hidden />
          {u.resetFactors}
        </Button>
      }
      onConfirm={() =>
        reset.mutateAsync(userId).then(
          () => toast.success(u.factorsReset(name)),
          (error: unknown) => toast.error(u.resetFactorsFailed, { description: error instanceof Error ? error.message : undefined }),
        )
      }
    />
  );
}
