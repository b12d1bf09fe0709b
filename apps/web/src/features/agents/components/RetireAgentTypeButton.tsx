import { type AgentType } from '@console/domain';
import { Archive } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { useRetireAgentType } from '@/api/agents';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { MESSAGES } from '@/lib/wording';

const a = MESSAGES.agentPages;

/** Retire, after a confirmation that says what stops and what goes on. */
export function RetireAgentTypeButton({ type }: { type: AgentType }) {
  const [open, setOpen] = useState(false);
  const retire = useRetireAgentType();
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)} disabled={retire.isPending} aria-label={`${a.retire} ${type.name}`}>
        <Archive aria-hidden />
        {a.retire}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={a.retireTitle(type.name)}
        description={a.retireBody}
        confirmLabel={a.retire}
        destructive
        onConfirm={() =>
          retire.mutate(type.id, {
            onSuccess: () => toast.success(a.retired(type.name)),
            onError: (error) => toast.error(a.retireFailed, { description: error.message }),
          })
        }
      />
    </>
  );
}
