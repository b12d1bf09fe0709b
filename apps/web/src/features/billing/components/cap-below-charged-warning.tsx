import { capAmountSchema, toCents, type SpendControls } from '@console/domain';
import { TriangleAlert } from 'lucide-react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { formatCredits } from '@/lib/credit-format';
import { MESSAGES } from '../wording';

const s = MESSAGES.spendPages;

type CapWindowKind = 'day' | 'week' | 'month';
/** The three cap fields as typed in the dialog, by window. */
export type TypedCaps = Record<CapWindowKind, string>;

/**
 * The windows whose new cap, as typed, is at or below what the window holding now has already
 * charged: saved, it stops the organization's usage at once (the server accepts it; a cap
 * counts what its window charged before it was set). A cap left as it stands, or not yet a
 * valid amount, is not one: the field's own check speaks for it.
 */
export function capsAtOrBelowCharged(controls: SpendControls, typed: TypedCaps): { window: CapWindowKind; charged: string }[] {
  const standing = { month: controls.spend_cap, week: controls.weekly_spend_cap, day: controls.daily_spend_cap };
  return (['month', 'week', 'day'] as const).flatMap((window) => {
    if (typed[window].trim() === '') return [];
    const parsed = capAmountSchema.safeParse(typed[window]);
    const { cap, charged } = standing[window];
    if (!parsed.success || parsed.data === cap) return [];
    const chargedCents = toCents(charged);
    return chargedCents > 0n && toCents(parsed.data) <= chargedCents ? [{ window, charged }] : [];
  });
}

/** Before saving: a new cap at or below this window's charges refuses new usage at once. */
export function CapBelowChargedWarning({ controls, typed }: { controls: SpendControls; typed: TypedCaps }) {
  const below = capsAtOrBelowCharged(controls, typed);
  if (below.length === 0) return null;
  return (
    <Alert className="border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
      <TriangleAlert aria-hidden />
      <AlertDescription className="text-inherit">
        {below.map(({ window, charged }) => (
          <p key={window}>{s.capAtOrBelowCharged(window, formatCredits(charged))}</p>
        ))}
      </AlertDescription>
    </Alert>
  );
}
