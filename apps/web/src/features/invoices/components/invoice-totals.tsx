import { cn } from '@/lib/utils';
import { MESSAGES } from '../wording';
import { formatMoney } from '../format';

const t = MESSAGES.invoicePages.totals;

export interface Totals {
  subtotal: string;
  tax: string;
  total: string;
  /** Issued invoices: what was paid and what is still owed. */
  paid?: string;
  outstanding?: string;
}

/** Subtotal, tax, total (and paid, outstanding), right-aligned under the lines, each named. */
export function InvoiceTotals({
  totals,
  currency,
  taxLabel,
  className,
}: {
  totals: Totals;
  currency: string;
  /** "VAT (20%)", or plain "Tax" where the rate is not known. */
  taxLabel?: string;
  className?: string;
}) {
  const rows: [string, string, boolean][] = [
    [t.subtotal, totals.subtotal, false],
    [taxLabel ?? t.taxPlain, totals.tax, false],
    [t.total, totals.total, true],
  ];
  if (totals.paid !== undefined) rows.push([t.paid, totals.paid, false]);
  if (totals.outstanding !== undefined) rows.push([t.outstanding, totals.outstanding, true]);
  return (
    <dl aria-label={t.label} className={cn('ml-auto grid w-full max-w-xs grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm', className)}>
      {rows.map(([label, amount, strong]) => (
        <div key={label} className="contents">
          <dt className={cn('text-muted-foreground', strong && 'font-medium text-foreground')}>{label}</dt>
          <dd className={cn('text-right tabular-nums whitespace-nowrap', strong && 'font-semibold')}>{formatMoney(amount, currency)}</dd>
        </div>
      ))}
    </dl>
  );
}
