import { ListTree } from 'lucide-react';
import { ViewChoice } from '@/components/view-choice';

export type ListMode = 'table' | 'hierarchy';

/** Table/Hierarchy switch of the /orgs list: two buttons, the current one pressed. */
export function ViewToggle({ mode, onChange }: { mode: ListMode; onChange(mode: ListMode): void }) {
  return (
    <ViewChoice
      className="inline-flex rounded-md border p-0.5"
      other={{ value: 'hierarchy', icon: ListTree, name: 'Hierarchy' }}
      value={mode}
      onChange={onChange}
    />
  );
}
