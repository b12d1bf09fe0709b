import { ENTRY_TYPES, describeUsage, type EntryType } from '@console/domain';
import { formatDateTime } from '@/lib/dates';

export const ENTRY_TYPE_LABELS: Record<EntryType, string> = {
  initial_balance: 'Initial balance',
  allocation_sent: 'Allocation sent',
  allocation_received: 'Allocation received',
  consumption: 'Consumption',
  refund: 'Refund',
  adjustment_increase: 'Adjustment (increase)',
  adjustment_decrease: 'Adjustment (decrease)',
  earning: 'Earning',
  reversal_sent: 'Reversal sent',
  reversal_received: 'Reversal received',
  expiry: 'Expiry',
  expiry_returned: 'Expired credits returned',
};

/** Each entry type has its own badge colour; an unknown type is grey. */
export const ENTRY_TYPE_BADGE_CLASSES: Record<EntryType, string> = {
  initial_balance: 'border-blue-200 bg-blue-100 text-blue-800 dark:border-blue-800 dark:bg-blue-950 dark:text-blue-200',
  allocation_sent: 'border-orange-200 bg-orange-100 text-orange-800 dark:border-orange-800 dark:bg-orange-950 dark:text-orange-200',
  allocation_received: 'border-green-200 bg-green-100 text-green-800 dark:border-green-800 dark:bg-green-950 dark:text-green-200',
  consumption: 'border-red-200 bg-red-100 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200',
  refund: 'border-purple-200 bg-purple-100 text-purple-800 dark:border-purple-800 dark:bg-purple-950 dark:text-purple-200',
  adjustment_increase: 'border-teal-200 bg-teal-100 text-teal-800 dark:border-teal-800 dark:bg-teal-950 dark:text-teal-200',
  adjustment_decrease: 'border-amber-200 bg-amber-100 text-amber-800 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200',
  earning: 'border-emerald-200 bg-emerald-100 text-emerald-800 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-200',
  reversal_sent: 'border-slate-300 bg-slate-100 text-slate-800 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-200',
  reversal_received: 'border-sky-200 bg-sky-100 text-sky-800 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-200',
  expiry: 'border-rose-200 bg-rose-100 text-rose-800 dark:border-rose-800 dark:bg-rose-950 dark:text-rose-200',
  expiry_returned: 'border-indigo-200 bg-indigo-100 text-indigo-800 dark:border-indigo-800 dark:bg-indigo-950 dark:text-indigo-200',
};

export const UNKNOWN_BADGE_CLASSES = 'border-gray-200 bg-gray-100 text-gray-800 dark:border-gray-700 dark:bg-gray-800 dark:text-gray-200';

export function isEntryType(value: string): value is EntryType {
  return (ENTRY_TYPES as readonly string[]).includes(value);
}

export function entryTypeLabel(type: string): string {
  if (isEntryType(type)) return ENTRY_TYPE_LABELS[type];
  const words = type.replace(/_/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'Unknown';
}

export function entryTypeBadgeClasses(type: string): string {
  return isEntryType(type) ? ENTRY_TYPE_BADGE_CLASSES[type] : UNKNOWN_BADGE_CLASSES;
}

function text(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() || null;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

/** Metadata lines of the list view, labelled; the ids stay visible for support questions. */
export function metadataLines(metadata: Record<string, unknown>): { label: string; value: string }[] {
  const lines: { label: string; value: string }[] = [];
  const add = (label: string, value: string | null) => {
    if (value) lines.push({ label, value });
  };
  add('Notes', text(metadata.notes));
  add('Reason', text(metadata.reason) === text(metadata.notes) ? null : text(metadata.reason));
  add('Reverses transaction', text(metadata.reverses_transaction_id));
  add('To', text(metadata.to_org_name));
  add('To organization ID', text(metadata.to_org_id));
  add('From', text(metadata.from_org_name));
  add('From organization ID', text(metadata.from_org_id));
  add('Usage', describeUsage(metadata.usage));
  add('Event ID', text(metadata.event_id));
  add('Grant ID', text(metadata.grant_id));
  // A batch's consumption entry: the price its events were charged at and when they occurred.
  add('Price', text(metadata.price));
  const first = text(metadata.first_occurred_at);
  const last = text(metadata.last_occurred_at);
  add('Occurred', first && last ? (first === last ? formatDateTime(first) : `${formatDateTime(first)} – ${formatDateTime(last)}`) : null);
  return lines;
}
