import { type AgentType } from '@console/domain';
import { Archive } from 'lucide-react';
import { toast } from 'sonner';
import { useRetireAgentType } from '@/api/agents';
import { MESSAGES } from '@/lib/wording';
import { ConfirmButton } from '@/components/confirm-button';

const a = MESSAGES.agentPages;

/** Retire, after a confirmation that says what stops and what goes on. */
export function RetireAgentTypeButton({ type }: { type: AgentType }) {
  const retire = useRetireAgentType();
  return (
    <ConfirmButton
      label={a.retire}
      subject={type.name}
      icon={<Archive aria-hidden />}
      pending={retire.isPending}
      title={a.retireTitle(type.name)}
      description={a.retireBody}
      onConfirm={() =>
        retire.mutate(type.id, {
          onSuccess: () => toast.success(a.retired(type.name)),
          onError: (error) => toast.error(a.retireFailed, { description: error.message }),
        })
      }
    />
  );
}
