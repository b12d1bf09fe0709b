import { RotateCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { MESSAGES } from '@/lib/wording';

interface FreshnessProps {
  /** When the figures were last received (a query's `dataUpdatedAt`). */
  updatedAt: number;
  onRefresh(): void;
  refreshing: boolean;
  className?: string;
}

/** "Updated N s ago", counting every second, with a button that asks for the figures again. */
export function Freshness({ updatedAt, onRefresh, refreshing, className }: FreshnessProps) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1_000);
    return () => window.clearInterval(timer);
  }, []);
  // Figures newer than the last tick are 0 s old.
  const seconds = Math.max(0, Math.floor((now - updatedAt) / 1_000));
  return (
    <div className={cn('flex items-center gap-1 text-xs text-muted-foreground', className)} data-testid="freshness">
      <span>{MESSAGES.live.updatedAgo(seconds)}</span>
      <Button
        variant="ghost"
        size="icon"
        className="size-8"
        aria-label={MESSAGES.live.refresh}
        title={MESSAGES.live.refresh}
        onClick={onRefresh}
        disabled={refreshing}
      >
        <RotateCw className={cn('size-3.5', refreshing && 'animate-spin')} aria-hidden />
      </Button>
    </div>
  );
}
