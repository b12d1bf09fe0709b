import { type AgentType } from '@console/domain';
import { Archive } from 'lucide-react';
import { useRetireAgentType } from '@/api/agents';
import { MESSAGES } from '../wording';
import { ConfirmButton } from '@/components/confirm-button';
import { announce } from '@/lib/announce';

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
      onConfirm={() => announce(retire.mutateAsync(type.id), a.retired(type.name), a.retireFailed)}
    />
  );
}
