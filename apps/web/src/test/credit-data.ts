import { ledgerSentence, type LedgerEntry, type LedgerPage } from '@console/domain';
import { OWN_ORG_ID } from './helpers';

let seq = 0;
/**
 * A ledger entry of the own organization; the type is any of the ledger's entry types. Its
 * description is the domain's sentence, as the server writes it, unless given.
 */
export function entry(overrides: Partial<LedgerEntry> & Pick<LedgerEntry, 'entry_type'>): LedgerEntry {
  seq += 1;
  const made: LedgerEntry = {
    id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    organization_id: OWN_ORG_ID,
    amount: '100.00',
    transaction_group: '00000000-0000-4000-9000-000000000001',
    metadata: {},
    balance_after: '1000.00',
    external_ref: null,
    agent_type_id: null,
    units: null,
    created_by: null,
    created_at: '2024-01-05T15:04:00.000Z',
    actor: null,
    counterparty: null,
    description: '',
    reversed_by: null,
    ...overrides,
  };
  const description =
    overrides.description ?? ledgerSentence({ ...made, actor: made.actor?.name ?? null, counterparty: made.counterparty?.name ?? null });
  return { ...made, description };
}

export function ledgerPage(entries: LedgerEntry[], overrides: Partial<LedgerPage> = {}): LedgerPage {
  return { entries, next_cursor: null, credit_balance: '1000.00', low_balance_threshold: '100.00', ...overrides };
}
