import { TIMING } from '@console/domain';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Toaster } from 'sonner';
import { AuthProvider } from '@/lib/auth';
import { ThemeProvider, useTheme } from '@/lib/theme';

/** Toasts: bottom-right, one at a time, for TIMING.toastDurationMs. */
function AppToaster() {
  const { resolvedTheme } = useTheme();
  return <Toaster position="bottom-right" visibleToasts={1} duration={TIMING.toastDurationMs} theme={resolvedTheme} richColors />;
}

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <ThemeProvider>
      <QueryClientProvider client={queryClient}>
        <AuthProvider>{children}</AuthProvider>
      </QueryClientProvider>
      <AppToaster />
    </ThemeProvider>
  );
}
