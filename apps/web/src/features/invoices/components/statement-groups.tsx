import { STATEMENT_GROUP_LABELS, type StatementGroup } from '@console/domain';
import { ResponsiveDataTable } from '@/components/data-table';
import { StackedCard } from '@/components/stacked-card';
import { amountClass, formatDecimal } from '@/lib/credit-format';
import { MESSAGES } from '../wording';

const s = MESSAGES.invoicePages.statements;
const c = s.columns;
const NONE = '—';

type Row = StatementGroup & { id: string };

const partyOf = (group: StatementGroup) => group.counterparty?.name ?? group.agent?.name ?? NONE;
const signed = (amount: string) => <span className={`tabular-nums ${amountClass(amount)}`}>{formatDecimal(amount)}</span>;

/**
 * The month's movements grouped: what kind, with whom (or which agent), units and the average
 * price per unit for usage, how many entries and the signed amount in credits.
 */
export function StatementGroups({ groups }: { groups: StatementGroup[] }) {
  const rows: Row[] = groups.map((group, index) => ({ ...group, id: `${index}-${group.kind}` }));
  return (
    <ResponsiveDataTable<Row>
      label={s.groupsLabel}
      rows={rows}
      columns={[
        { head: c.kind, cell: (group) => STATEMENT_GROUP_LABELS[group.kind] },
        { head: c.party, className: 'max-w-56 whitespace-normal wrap-anywhere', cell: partyOf },
        { head: c.units, headClassName: 'text-right', className: 'text-right tabular-nums', cell: (group) => group.units ?? NONE },
        { head: c.unitPrice, headClassName: 'text-right', className: 'text-right tabular-nums', cell: (group) => group.unit_price ?? NONE },
        { head: c.entries, headClassName: 'text-right', className: 'text-right tabular-nums', cell: (group) => group.entries },
        { head: c.amount, headClassName: 'text-right', className: 'text-right', cell: (group) => signed(group.amount) },
      ]}
      card={(group) => (
        <StackedCard
          title={STATEMENT_GROUP_LABELS[group.kind]}
          fields={[
            { label: c.party, value: partyOf(group) },
            ...(group.units !== null ? [{ label: c.units, value: group.units }] : []),
            ...(group.unit_price !== null ? [{ label: c.unitPrice, value: group.unit_price }] : []),
            { label: c.entries, value: group.entries },
            { label: c.amount, value: signed(group.amount) },
          ]}
        />
      )}
    />
  );
}
