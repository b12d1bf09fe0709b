import { cn } from '@/lib/utils';
import { entryTypeBadgeClasses, entryTypeLabel, isEntryType } from '@/lib/entry-types';

/** A ledger entry type as a coloured badge: one colour per type, grey for an unknown type. */
export function EntryTypeBadge({ type, className }: { type: string; className?: string }) {
  return (
    <span
      data-entry-type={isEntryType(type) ? type : 'unknown'}
      className={cn(
        'inline-flex w-fit shrink-0 items-center rounded-md border px-2 py-0.5 text-xs font-medium whitespace-nowrap',
        entryTypeBadgeClasses(type),
        className,
      )}
    >
      {entryTypeLabel(type)}
    </span>
  );
}
