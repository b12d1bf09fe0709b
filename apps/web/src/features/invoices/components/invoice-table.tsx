import type { InvoiceSummary } from '@console/domain';
import { Link } from 'react-router';
import { ResponsiveDataTable } from '@/components/data-table';
import { StackedCard } from '@/components/stacked-card';
import { invoiceHref } from '@/lib/paths';
import { MESSAGES } from '../wording';
import { formatDay, formatMoney, monthLabel } from '../format';
import { InvoiceStateBadge } from './invoice-state-badge';

const w = MESSAGES.invoicePages;
const c = w.columns;

/** The invoice's number, leading to its page; a credit note says so. */
function NumberLink({ invoice }: { invoice: InvoiceSummary }) {
  return (
    <span className="grid">
      <Link to={invoiceHref(invoice.id)} className="font-medium underline-offset-4 hover:underline">
        {invoice.number}
      </Link>
      {invoice.kind === 'credit_note' && <span className="text-xs text-muted-foreground">{w.creditNote}</span>}
    </span>
  );
}

/**
 * Issued invoices as a table (a card each on a narrow screen): number, the other party (the
 * child billed, or the seller), period, dates, total, what is still owed and the state in words.
 */
export function InvoiceTable({ invoices, side }: { invoices: InvoiceSummary[]; side: 'issued' | 'received' }) {
  const partyHead = side === 'issued' ? c.buyer : c.seller;
  const partyOf = (invoice: InvoiceSummary) => (side === 'issued' ? invoice.buyer.name : invoice.seller.name);
  const money = (amount: string, invoice: InvoiceSummary) => formatMoney(amount, invoice.currency);
  return (
    <ResponsiveDataTable
      label={w.invoicesLabel}
      rows={invoices}
      columns={[
        { head: c.number, cell: (invoice) => <NumberLink invoice={invoice} /> },
        { head: partyHead, className: 'max-w-56 whitespace-normal wrap-anywhere', cell: partyOf },
        { head: c.period, cell: (invoice) => monthLabel(invoice.period) },
        { head: c.issued, cell: (invoice) => formatDay(invoice.issued_at) },
        { head: c.due, cell: (invoice) => formatDay(invoice.due_on) },
        {
          head: c.total,
          headClassName: 'text-right',
          className: 'text-right tabular-nums',
          cell: (invoice) => money(invoice.total, invoice),
        },
        {
          head: c.outstanding,
          headClassName: 'text-right',
          className: 'text-right tabular-nums',
          cell: (invoice) => money(invoice.outstanding, invoice),
        },
        { head: c.state, cell: (invoice) => <InvoiceStateBadge state={invoice.state} /> },
      ]}
      card={(invoice) => (
        <StackedCard
          title={<NumberLink invoice={invoice} />}
          fields={[
            { label: partyHead, value: partyOf(invoice) },
            { label: c.state, value: <InvoiceStateBadge state={invoice.state} /> },
            { label: c.period, value: monthLabel(invoice.period) },
            { label: c.issued, value: formatDay(invoice.issued_at) },
            { label: c.due, value: formatDay(invoice.due_on) },
            { label: c.total, value: money(invoice.total, invoice) },
            { label: c.outstanding, value: money(invoice.outstanding, invoice) },
          ]}
        />
      )}
    />
  );
}
