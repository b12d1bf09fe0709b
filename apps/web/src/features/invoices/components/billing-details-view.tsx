import type { BillingDetails } from '@console/domain';
import { formatDateTime } from '@/lib/dates';
import { MESSAGES } from '../wording';

const d = MESSAGES.invoicePages.details;

/** The billing details as read by the seller's people who may not change them. */
export function BillingDetailsView({ details, nextNumber }: { details: BillingDetails | null; nextNumber: string }) {
  if (!details) return <p className="text-sm text-muted-foreground">{d.notSet}</p>;
  const rows: [string, string][] = [
    [d.legalName, details.legal_name],
    [d.address, details.address],
    [d.taxId, details.tax_id || d.none],
    [d.currency, details.currency],
    [d.creditPrice, `${details.credit_price} ${details.currency}`],
    [d.taxRate, details.tax_rate],
    [d.taxLabel, details.tax_label],
    [d.termsDays, String(details.terms_days)],
    [d.numberPrefix, details.number_prefix || d.none],
    [d.note, details.note ?? d.none],
  ];
  return (
    <div className="space-y-4">
      <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[minmax(0,12rem)_minmax(0,1fr)]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="min-w-0 whitespace-pre-line wrap-anywhere">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="text-sm">{d.nextNumber(nextNumber)}</p>
      <p className="text-sm text-muted-foreground">{d.updatedAt(formatDateTime(details.updated_at))}</p>
    </div>
  );
}
