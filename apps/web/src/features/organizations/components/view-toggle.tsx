import { ListTree, Table2 } from 'lucide-react';
import { Button } from '@/components/ui/button';

export type ListMode = 'table' | 'hierarchy';

/** Table/Hierarchy switch of the /orgs list: two buttons, the current one pressed. */
export function ViewToggle({ mode, onChange }: { mode: ListMode; onChange(mode: ListMode): void }) {
  return (
    <div role="group" aria-label="View" className="inline-flex rounded-md border p-0.5">
      <Button
        size="sm"
        variant={mode === 'table' ? 'secondary' : 'ghost'}
        aria-pressed={mode === 'table'}
        onClick={() => onChange('table')}
      >
        <Table2 aria-hidden />
        Table
      </Button>
      <Button
        size="sm"
        variant={mode === 'hierarchy' ? 'secondary' : 'ghost'}
        aria-pressed={mode === 'hierarchy'}
        onClick={() => onChange('hierarchy')}
      >
        <ListTree aria-hidden />
        Hierarchy
      </Button>
    </div>
  );
}
