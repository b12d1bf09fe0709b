import { LogOut } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { useEndUserSessions } from '@/api/users';
import { MESSAGES } from '@/lib/wording';

const u = MESSAGES.users;

/** Ends every session of a person after a confirmation, then says how many ended. */
export function EndSessionsButton({ userId, name }: { userId: string; name: string }) {
  const end = useEndUserSessions();
  const [open, setOpen] = useState(false);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      title={u.endSessionsTitle}
      description={u.endSessionsConfirm(name)}
      confirmLabel={u.endSessions}
      destructive
      trigger={
        <Button variant="outline" disabled={end.isPending}>
          <LogOut aria-hidden />
          {u.endSessions}
        </Button>
      }
      onConfirm={() =>
        end.mutateAsync(userId).then(
          ({ ended }) => toast.success(u.sessionsEnded(ended)),
          (error: unknown) => toast.error(u.endSessionsFailed, { description: error instanceof Error ? error.message : undefined }),
        )
      }
    />
  );
}
