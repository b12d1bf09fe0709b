import { UI } from '@console/domain';
import { PanelLeftOpen } from 'lucide-react';
import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { FrozenBanner } from '@/components/frozen-banner';
import { PageLoading } from '@/components/page-loading';
import { StepUpDialog } from '@/components/step-up-dialog';
import { Button } from '@/components/ui/button';
import { useMediaQuery } from '@/lib/use-media-query';
import { cn } from '@/lib/utils';
import { CommandPalette } from './command-palette';
import { MobileNav } from './mobile-nav';
import { OrganizationBreadcrumbs } from './organization-breadcrumbs';
import { pageTitleOf } from './page-title';
import { ProfileMenu } from './profile-menu';
import { Sidebar } from './sidebar';
import { ThemeToggle } from './theme-toggle';
import { useSidebarState } from './use-sidebar-state';

/** The signed-in area's frame: the sidebar (a sheet on narrow screens), the header with the page's name and the profile menu, and the page. */
export default function AppShell() {
  const wide = useMediaQuery(`(min-width: ${UI.narrowBreakpointPx}px)`);
  const [sidebarOpen, setSidebarOpen] = useSidebarState();
  // Narrow screens always start closed; the stored choice applies again once wide.
  const sidebarShown = wide && sidebarOpen;
  const title = pageTitleOf(useLocation().pathname);

  return (
    <div className="min-h-screen">
      {sidebarShown && <Sidebar onCollapse={() => setSidebarOpen(false)} />}
      {wide && !sidebarOpen && (
        <Button
          variant="outline"
          size="icon"
          aria-label="Open sidebar"
          className="fixed top-2.5 left-3 z-40"
          onClick={() => setSidebarOpen(true)}
        >
          <PanelLeftOpen aria-hidden />
        </Button>
      )}
      <div className={cn('flex min-h-screen flex-col', sidebarShown && 'pl-64')}>
        <header
          className={cn(
            'sticky top-0 z-30 flex h-14 items-center gap-2 border-b bg-background/95 px-4 backdrop-blur',
            wide && !sidebarOpen && 'pl-16',
          )}
        >
          {!wide && <MobileNav />}
          {title && (
            <p className="min-w-0 truncate font-semibold" data-testid="page-title">
              {title}
            </p>
          )}
          <div className="ml-auto flex items-center gap-2">
            <CommandPalette />
            <ThemeToggle />
            <ProfileMenu />
          </div>
        </header>
        <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 md:px-6">
          <FrozenBanner />
          <OrganizationBreadcrumbs />
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
      {/* Asks for a fresh second factor (or password) when an action wants one, then lets it through. */}
      <StepUpDialog />
    </div>
  );
}
