import { UI } from '@console/domain';
import { PanelLeftClose } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { NavList } from './nav-list';

/** The fixed 16rem navigation column of wide screens. */
export function Sidebar({ onCollapse }: { onCollapse: () => void }) {
  return (
    <aside className="fixed inset-y-0 left-0 z-40 flex w-64 flex-col gap-4 border-r bg-background p-4">
      <div className="flex items-center justify-between gap-2">
        {/* The name wraps onto a second line rather than being cut with an ellipsis. */}
        <h2 className="min-w-0 text-lg leading-tight font-semibold text-balance break-words">{UI.productName}</h2>
        <Button variant="ghost" size="icon" aria-label="Collapse sidebar" onClick={onCollapse}>
          <PanelLeftClose aria-hidden />
        </Button>
      </div>
      <NavList />
    </aside>
  );
}
