import type { InvoiceLine } from '@console/domain';
import { ResponsiveDataTable } from '@/components/data-table';
import { StackedCard } from '@/components/stacked-card';
import { formatDecimal } from '@/lib/credit-format';
import { MESSAGES } from '../wording';
import { formatDay, formatMoney } from '../format';

const l = MESSAGES.invoicePages.lines;
const kinds = MESSAGES.invoicePages.lineKinds;

type Row = InvoiceLine & { id: string };

/**
 * The lines of an invoice or a draft: date, what moved, credits, unit price, amount and the
 * movement's reference; one card a line on a narrow screen.
 */
export function InvoiceLinesTable({ lines, currency, label }: { lines: InvoiceLine[]; currency: string; label: string }) {
  const rows: Row[] = lines.map((line) => ({ ...line, id: line.entry_id }));
  const description = (line: InvoiceLine) => (
    <>
      <span className="block">{line.description || kinds[line.kind]}</span>
      {line.description && <span className="block text-xs text-muted-foreground">{kinds[line.kind]}</span>}
    </>
  );
  return (
    <ResponsiveDataTable<Row>
      label={label}
      rows={rows}
      columns={[
        { head: l.date, className: 'whitespace-nowrap', cell: (line) => formatDay(line.occurred_at) },
        { head: l.description, className: 'min-w-48 whitespace-normal', cell: description },
        { head: l.credits, headClassName: 'text-right', className: 'text-right tabular-nums', cell: (line) => formatDecimal(line.credits) },
        {
          head: l.unitPrice,
          headClassName: 'text-right',
          className: 'text-right tabular-nums',
          cell: (line) => `${line.unit_price} ${currency}`,
        },
        {
          head: l.amount,
          headClassName: 'text-right',
          className: 'text-right tabular-nums whitespace-nowrap',
          cell: (line) => formatMoney(line.amount, currency),
        },
        { head: l.reference, className: 'font-mono text-xs', cell: (line) => line.reference },
      ]}
      card={(line) => (
        <StackedCard
          title={description(line)}
          fields={[
            { label: l.date, value: formatDay(line.occurred_at) },
            { label: l.credits, value: formatDecimal(line.credits) },
            { label: l.unitPrice, value: `${line.unit_price} ${currency}` },
            { label: l.amount, value: formatMoney(line.amount, currency) },
            { label: l.reference, value: <span className="font-mono text-xs">{line.reference}</span> },
          ]}
        />
      )}
    />
  );
}
