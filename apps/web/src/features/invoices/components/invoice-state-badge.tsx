import { INVOICE_STATE_LABELS, type InvoiceState } from '@console/domain';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

/** Each state's colours; the label always says the state, so colour is never the only sign. */
const CLASSES: Record<InvoiceState, string> = {
  open: 'border-border bg-background text-foreground',
  partially_paid: 'border-transparent bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100',
  paid: 'border-transparent bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200',
  overdue: 'border-transparent bg-destructive text-white dark:bg-destructive/60',
  void: 'border-transparent bg-muted text-muted-foreground',
  credit: 'border-transparent bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-100',
};

/** Where an invoice stands, in words: Open, Partially paid, Paid, Overdue, Void or Credit note. */
export function InvoiceStateBadge({ state, className }: { state: InvoiceState; className?: string }) {
  return (
    <Badge variant="outline" className={cn(CLASSES[state], className)} data-state={state}>
      {INVOICE_STATE_LABELS[state]}
    </Badge>
  );
}
