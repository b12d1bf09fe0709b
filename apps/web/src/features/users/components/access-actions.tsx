import { KeyRound, LogOut, type LucideIcon } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { useEndUserSessions, useResetUserFactors } from '@/api/users';
import { MESSAGES } from '../wording';

const u = MESSAGES.users;

/** An admin's action on a person's access: asked in a confirmation that says what happens, then said done or refused in a toast. */
function AccessActionButton({
  icon: Icon,
  label,
  title,
  description,
  failed,
  pending,
  run,
}: {
  icon: LucideIcon;
  label: string;
  title: string;
  description: string;
  failed: string;
  pending: boolean;
  /** Sends the action; resolves to the sentence that says it is done. */
  run(): Promise<string>;
}) {
  return (
    <ConfirmDialog
      title={title}
      description={description}
      confirmLabel={label}
      destructive
      trigger={
        <Button variant="outline" disabled={pending}>
          <Icon aria-hidden />
          {label}
        </Button>
      }
      onConfirm={() =>
        run().then(
          (done) => toast.success(done),
          (error: unknown) => toast.error(failed, { description: error instanceof Error ? error.message : undefined }),
        )
      }
    />
  );
}

/** Ends every session of a person, then says how many ended. */
export function EndSessionsButton({ userId, name }: { userId: string; name: string }) {
  const end = useEndUserSessions();
  return (
    <AccessActionButton
      icon={LogOut}
      label={u.endSessions}
      title={u.endSessionsTitle}
      description={u.endSessionsConfirm(name)}
      failed={u.endSessionsFailed}
      pending={end.isPending}
      run={async () => u.sessionsEnded((await end.mutateAsync(userId)).ended)}
    />
  );
}

/**
 * Removes every second factor of a person who lost them. The confirmation says what happens:
 * the app, the passkeys and the recovery codes go, every session ends, the person and their
 * admins are mailed, and the person signs in with their password alone until they set up a
 * factor again.
 */
export function ResetFactorsButton({ userId, name }: { userId: string; name: string }) {
  const reset = useResetUserFactors();
  return (
    <AccessActionButton
      icon={KeyRound}
      label={u.resetFactors}
      title={u.resetFactorsTitle}
      description={u.resetFactorsConfirm(name)}
      failed={u.resetFactorsFailed}
      pending={reset.isPending}
      run={async () => {
        await reset.mutateAsync(userId);
        return u.factorsReset(name);
      }}
    />
  );
}
