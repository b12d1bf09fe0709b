import { ChoiceButtons } from '@/components/choice-buttons';
import { MESSAGES } from '../wording';

const m = MESSAGES.dashboardPages;

export type Scope = 'subtree' | 'own';

/** Whether a card's figures cover the whole subtree or the organization alone. */
export function ScopeChoice({
  label,
  organizationName,
  value,
  onChange,
}: {
  label: string;
  organizationName: string;
  value: Scope;
  onChange: (scope: Scope) => void;
}) {
  return (
    <ChoiceButtons
      label={label}
      className="flex max-w-full min-w-0 flex-wrap gap-1"
      wrap
      choices={[
        { value: 'subtree', label: m.agentsScopeSubtree },
        { value: 'own', label: m.agentsScopeOwn(organizationName) },
      ]}
      value={value}
      onChange={onChange}
    />
  );
}
