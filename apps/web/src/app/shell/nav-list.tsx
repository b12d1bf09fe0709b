import { Link, useLocation } from 'react-router';
import { useViewer } from '@/lib/use-viewer';
import { cn } from '@/lib/utils';
import { navItemsFor } from './nav-items';

export function NavList({ onNavigate }: { onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const viewer = useViewer();
  const items = navItemsFor(viewer);
  return (
    <nav aria-label="Main">
      <ul className="grid gap-1">
        {items.map(({ to, label, icon: Icon, isActive }) => {
          const active = isActive(pathname, viewer);
          return (
            <li key={to}>
              <Link
                to={to}
                onClick={onNavigate}
                aria-current={active ? 'page' : undefined}
                className={cn(
                  'flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground',
                  active && 'bg-accent text-accent-foreground',
                )}
              >
                <Icon className="size-4" aria-hidden />
                {label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
