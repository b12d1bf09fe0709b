import { ListTree, Table2 } from 'lucide-react';
import { ChoiceButtons } from '@/components/choice-buttons';

export type ListMode = 'table' | 'hierarchy';

/** Table/Hierarchy switch of the /orgs list: two buttons, the current one pressed. */
export function ViewToggle({ mode, onChange }: { mode: ListMode; onChange(mode: ListMode): void }) {
  return (
    <ChoiceButtons
      label="View"
      className="inline-flex rounded-md border p-0.5"
      choices={[
        {
          value: 'table',
          label: (
            <>
              <Table2 aria-hidden />
              Table
            </>
          ),
        },
        {
          value: 'hierarchy',
          label: (
            <>
              <ListTree aria-hidden />
              Hierarchy
            </>
          ),
        },
      ]}
      value={mode}
      onChange={onChange}
    />
  );
}
