import type { ReactNode } from 'react';

/** The centred column of the pages outside the shell (sign-in, password, invitation). */
export function CenteredLayout({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-muted/40 p-4">
      <div className="w-full max-w-sm space-y-4">{children}</div>
    </main>
  );
}
