import { AlertTriangle } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { formatCredits, isLowBalance } from '@/lib/credit-format';
import { MESSAGES } from '@/lib/wording';

/** The low-balance warning, shown while the balance is below the organization's own alert threshold. */
export function LowBalanceAlert({ balance, threshold }: { balance: string; threshold: string }) {
  if (!isLowBalance(balance, threshold)) return null;
  return (
    <Alert className="border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
      <AlertTriangle aria-hidden />
      <AlertTitle>{MESSAGES.credits.lowBalance}</AlertTitle>
      <AlertDescription className="text-inherit">{MESSAGES.thresholdPages.below(formatCredits(threshold))}</AlertDescription>
    </Alert>
  );
}
