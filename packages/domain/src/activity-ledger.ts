import { count, obj, str } from './activity-text.ts';
import { formatAmount } from './format-amount.ts';

/**
 * The ledger's descriptions, as a person reads them: one sentence per entry, built from the
 * entry's facts; the console and the export say the same thing.
 */

/** The facts of one ledger entry its sentence is built from. */
export interface LedgerFacts {
  entry_type: string;
  amount: string;
  metadata: Record<string, unknown>;
  units?: string | null;
  /** The person who moved the credits, by name. */
  actor: string | null;
  /** The other organization of an allocation or initial balance, by name. */
  counterparty: string | null;
  /** The catalog's agent of a metered consumption entry; without it the code the runtime reported names it. */
  agent?: { name: string; unit: string } | null;
}

/**
 * Units as a decimal with four places ("12.5000") without trailing zeros, grouped: "12.5",
 * "1,200"; by string manipulation, so units never pass through a float.
 */
export function formatUnits(value: string): string {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) return value;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  const whole = match[1]!.replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction ? `${whole}.${fraction}` : whole;
}

const usageValue = (value: unknown): string | null =>
  typeof value === 'string' ? value.trim() || null : typeof value === 'number' || typeof value === 'boolean' ? String(value) : null;

/** A usage record as "tokens 1200, model gpt" (the keys and values the importer stored); null when there is none. */
export function describeUsage(usage: unknown): string | null {
  const parts = Object.entries(obj(usage))
    .map(([key, value]) => {
      const shown = usageValue(value);
      return shown === null ? null : `${key.replace(/_/g, ' ')} ${shown}`;
    })
    .filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(', ') : null;
}

/** The ledger's description: "Ana Ruiz allocated 500.00 credits to Acme Dental: spring campaign". */
export function ledgerSentence({ entry_type, amount, metadata, units, actor, counterparty, agent }: LedgerFacts): string {
  const credits = `${formatAmount(amount.replace(/^-/, ''))} credits`;
  const notes = str(metadata.notes);
  const reason = str(metadata.reason) ?? notes;
  const withNotes = (base: string) => (notes && notes !== 'Initial balance' ? `${base}: ${notes}` : base);
  const other = counterparty ?? 'another organization';
  // The top-up runner moves credits on its own, with notes "Automatic top-up".
  if (metadata.automatic === true && entry_type === 'allocation_sent') return `Automatic top-up: sent ${credits} to ${other}`;
  if (metadata.automatic === true && entry_type === 'allocation_received') return `Automatic top-up: received ${credits} from ${other}`;
  switch (entry_type) {
    case 'allocation_sent':
      return withNotes(`${actor ?? 'Someone'} allocated ${credits} to ${other}`);
    case 'allocation_received':
      return withNotes(`Received ${credits} from ${other}${actor ? `, allocated by ${actor}` : ''}`);
    case 'reversal_sent':
      return `${actor ?? 'Someone'} reversed an allocation: ${credits} returned to ${other}${reason ? `: ${reason}` : ''}`;
    case 'reversal_received':
      return `${actor ?? 'Someone'} reversed an allocation to ${other}: ${credits} returned${reason ? `: ${reason}` : ''}`;
    case 'initial_balance':
      return `Initial balance of ${credits} from ${other}${actor ? `, given by ${actor}` : ''}`;
    case 'consumption': {
      const name = agent?.name ?? str(metadata.agent);
      const used = units ?? str(metadata.units);
      const quantity = used ? `${formatUnits(used)} ${agent ? `× ${agent.unit}` : 'units'}` : 'credits';
      // A batch's usage of one agent at one price: "Support Bot: 1,000 events, 1,234.5 × run, charged 12.34 credits".
      if (typeof metadata.events === 'number') {
        const events = `${count(metadata.events)} ${metadata.events === 1 ? 'event' : 'events'}`;
        return `${name ?? 'Usage'}: ${events}${used ? `, ${quantity}` : ''}, charged ${credits}${actor ? `, imported by ${actor}` : ''}`;
      }
      const usage = describeUsage(metadata.usage);
      const what = name ? `${name} used ${quantity}` : 'Usage';
      return `${what}, charged ${credits}${usage ? ` (${usage})` : ''}${actor ? `, imported by ${actor}` : ''}`;
    }
    case 'refund': {
      const usage = describeUsage(metadata.usage);
      return `${actor ?? 'Someone'} refunded ${credits}${str(metadata.refund_of) ? ` for ${str(metadata.refund_of)}` : ''}${usage ? ` (${usage})` : ''}${reason ? `: ${reason}` : ''}`;
    }
    case 'earning': {
      // "Earned 1.20 credits from Acme Dental's Support Bot: 3 events, 24 × run at a margin of 0.05".
      const name = agent?.name ?? str(metadata.agent);
      const child = `${str(metadata.child_name) ?? other}${name ? `'s ${name}` : ''}`;
      const events = typeof metadata.events === 'number' ? `${count(metadata.events)} ${metadata.events === 1 ? 'event' : 'events'}, ` : '';
      const used = units ?? str(metadata.units);
      const margin = str(metadata.margin);
      return `Earned ${credits} from ${child}: ${events}${used ? `${formatUnits(used)} ${agent ? `× ${agent.unit}` : 'units'}` : 'usage'}${margin ? ` at a margin of ${formatUnits(margin)}` : ''}`;
    }
    case 'adjustment_increase':
      return `${actor ?? 'Someone'} added ${credits}${reason ? `: ${reason}` : ''}`;
    case 'adjustment_decrease':
      return `${actor ?? 'Someone'} removed ${credits}${reason ? `: ${reason}` : ''}`;
    default:
      return `${entry_type.replace(/_/g, ' ')} of ${credits}`;
  }
}
