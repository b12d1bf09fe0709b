import { STATEMENT_GROUP_LABELS, type Statement } from '@console/domain';
import { csvLine } from '../../lib/csv.ts';

/** The statement CSV's columns, in order; docs/api.md ("Statements") describes each. Never reordered: append only. */
export const STATEMENT_CSV_COLUMNS = [
  'section',
  'kind',
  'label',
  'counterparty_id',
  'counterparty_name',
  'agent_id',
  'agent_name',
  'units',
  'unit_price',
  'entries',
  'amount',
] as const;

/**
 * The statement as CSV rows: the opening balance, one row per group in the statement's order,
 * the closing balance, and the verification code (in `label`; empty for an empty ledger). The
 * amounts of the `movement` rows sum to closing minus opening.
 */
export function statementCsv(statement: Statement): string {
  const rows: unknown[][] = [
    ['opening', 'opening_balance', 'Opening balance', null, null, null, null, null, null, null, statement.opening_balance],
    ...statement.groups.map((group) => [
      'movement',
      group.kind,
      STATEMENT_GROUP_LABELS[group.kind],
      group.counterparty?.id,
      group.counterparty?.name,
      group.agent?.id,
      group.agent?.name,
      group.units,
      group.unit_price,
      group.entries,
      group.amount,
    ]),
    ['closing', 'closing_balance', 'Closing balance', null, null, null, null, null, null, statement.entries, statement.closing_balance],
    ['verification', 'verification_code', statement.verification_code, null, null, null, null, null, null, null, null],
  ];
  return [STATEMENT_CSV_COLUMNS, ...rows].map(csvLine).join('');
}
