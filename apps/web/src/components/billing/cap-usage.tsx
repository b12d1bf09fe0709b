import type { CapUsage, WindowCapUsage } from '@console/domain';
import { Progress } from '@/components/ui/progress';
import { formatCredits, formatDecimal } from '@/lib/credit-format';
import { cn } from '@/lib/utils';
import { MESSAGES } from '@/lib/wording';

const s = MESSAGES.spendPages;

/** From this share of a cap on, the bar turns amber (the server's first alert); at the cap, red. */
export const CAP_WARNING_PERCENT = 80;

/** What a month charged against its cap, in percent (unrounded, clamped 0..100); a cap of 0 is full at once. */
export function capPercent({ cap, charged }: Pick<CapUsage, 'cap' | 'charged'>): number {
  if (cap === null) return 0;
  const limit = Number(cap);
  if (limit <= 0) return 100;
  return Math.min(100, Math.max(0, (Number(charged) / limit) * 100));
}

/** The bar's colour of a share of a cap: the theme's primary, amber from CAP_WARNING_PERCENT, destructive at 100. */
export function capBarClass(percent: number): string {
  if (percent >= 100) return 'bg-destructive';
  if (percent >= CAP_WARNING_PERCENT) return 'bg-amber-500';
  return 'bg-primary';
}

/** The text colour of a compact cap, alike. */
function capTextClass(percent: number): string | undefined {
  if (percent >= 100) return 'text-destructive';
  if (percent >= CAP_WARNING_PERCENT) return 'text-amber-700 dark:text-amber-400';
  return undefined;
}

/** A key's or an activation's cap in one short line: "3.75 of 120.00 credits this month", or "No cap". */
export function CapUsageText({ usage, className }: { usage: CapUsage; className?: string }) {
  if (usage.cap === null) return <span className={cn('text-muted-foreground', className)}>{s.noCap}</span>;
  return (
    <span className={cn('tabular-nums', capTextClass(capPercent(usage)), className)} title={usage.month}>
      {s.capUsed(formatDecimal(usage.charged), formatCredits(usage.cap))}
    </span>
  );
}

/** A cap's bar, named by its share for assistive technology. */
export function CapProgress({ usage }: { usage: CapUsage }) {
  const percent = capPercent(usage);
  return <Progress value={percent} aria-label={s.capUsedPercent(Math.floor(percent))} indicatorClassName={capBarClass(percent)} />;
}

/** The day and week caps beside a month's, one short line each ("0.50 of 2.00 today"); nothing for a window without a cap. */
export function WindowCapsText({ daily, weekly, className }: { daily: WindowCapUsage; weekly: WindowCapUsage; className?: string }) {
  const set = (
    [
      ['day', daily],
      ['week', weekly],
    ] as const
  ).filter(([, usage]) => usage.cap !== null);
  return set.map(([window, usage]) => (
    <span
      key={window}
      className={cn('block tabular-nums', capTextClass(capPercent(usage)), className)}
      title={usage.window_start}
      data-testid={`cap-${window}`}
    >
      {s.windowCapUsed(window, formatDecimal(usage.charged), formatCredits(usage.cap!))}
    </span>
  ));
}
