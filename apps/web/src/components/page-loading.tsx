import { Loader2 } from 'lucide-react';
import { cn } from '@/lib/utils';

/** A centred spinner with an accessible name, for pages that wait on the session or a query. */
export function PageLoading({ className }: { className?: string }) {
  return (
    <div role="status" className={cn('flex min-h-40 items-center justify-center', className)}>
      <Loader2 className="size-6 animate-spin text-muted-foreground" aria-hidden />
      <span className="sr-only">Loading</span>
    </div>
  );
}
