import type { PriceBook, PriceBookItem } from '@console/domain';
import { ResponsiveDataTable, type Column } from '@/components/data-table';
import { StackedCard } from '@/components/stacked-card';
import { Badge } from '@/components/ui/badge';
import { formatPrice } from '@/lib/agents';
import { MESSAGES } from '../wording';
import { EditPriceDialog } from './edit-price-dialog';

const p = MESSAGES.pricingPages;

const priceOf = (price: string | null, unit: string) => (price === null ? p.noPrice : formatPrice(price, unit));

function Agent({ item }: { item: PriceBookItem }) {
  return (
    <>
      <div className="font-medium">{item.agent_type.name}</div>
      <div className="text-xs text-muted-foreground">{p.perUnit(item.agent_type.unit)}</div>
    </>
  );
}

/** What the children pay: their price, whether it is the own one passed through, and why when the book is below it. */
function ChildrenPay({ item }: { item: PriceBookItem }) {
  const { unit } = item.agent_type;
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap items-center gap-2">
        <span className="tabular-nums">{priceOf(item.children_price, unit)}</span>
        {item.floored && <Badge variant="destructive">{p.floored}</Badge>}
      </div>
      {item.floored && item.book_price !== null ? (
        <p className="max-w-80 text-xs whitespace-normal text-muted-foreground">{p.flooredNote(formatPrice(item.book_price, unit))}</p>
      ) : (
        item.book_price === null && <p className="text-xs text-muted-foreground">{p.passThroughNote}</p>
      )}
    </div>
  );
}

/** The margin per unit with its unit, as the prices beside it: "0.25 credits per run". */
const marginOf = (item: PriceBookItem) => (item.margin === null ? '—' : formatPrice(item.margin, item.agent_type.unit));

/** Whether a row can be edited: the server refuses a type without a price and a retired one. */
const editable = (item: PriceBookItem) => item.my_price !== null && item.agent_type.status === 'active';

/** Every agent type of the book: a table on a wide screen, a card a type on a narrow one. */
export function PriceBookTable({ book }: { book: PriceBook }) {
  const actions = (item: PriceBookItem) =>
    book.can_edit && editable(item) ? <EditPriceDialog organizationId={book.organization_id} item={item} /> : null;
  const columns: (Column<PriceBookItem & { id: string }> | false)[] = [
    { head: p.agent, className: 'whitespace-normal', cell: (item) => <Agent item={item} /> },
    { head: p.yourPrice, className: 'tabular-nums', cell: (item) => priceOf(item.my_price, item.agent_type.unit) },
    { head: p.childrenPay, className: 'whitespace-normal', cell: (item) => <ChildrenPay item={item} /> },
    !book.catalog && { head: p.margin, className: 'tabular-nums', cell: marginOf },
    book.can_edit && { head: p.actions, headClassName: 'sr-only', cell: (item) => <div className="flex justify-end">{actions(item)}</div> },
  ];
  const rows = book.items.map((item) => ({ ...item, id: item.agent_type.id }));
  return (
    <ResponsiveDataTable
      label={p.tableLabel}
      columns={columns}
      rows={rows}
      card={(item) => (
        <StackedCard
          title={<Agent item={item} />}
          fields={[
            { label: p.yourPrice, value: priceOf(item.my_price, item.agent_type.unit) },
            { label: p.childrenPay, value: <ChildrenPay item={item} /> },
            ...(book.catalog ? [] : [{ label: p.margin, value: marginOf(item) }]),
          ]}
          actions={actions(item)}
        />
      )}
    />
  );
}
