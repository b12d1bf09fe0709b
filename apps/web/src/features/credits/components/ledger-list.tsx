import type { LedgerEntry } from '@console/domain';
import { cn } from '@/lib/utils';
import { EntryTypeBadge } from '@/components/credits/entry-type-badge';
import { amountClass, formatCredits } from '@/lib/credit-format';
import { formatDateTime } from '@/lib/dates';
import { metadataLines } from '@/lib/entry-types';
import { EntryEventsButton } from './entry-events-dialog';
import { LedgerActor, LedgerCounterparty } from './ledger-parties';
import { ReversalMark } from './reversal-mark';
import { ReverseAllocationButton } from './reverse-allocation-dialog';

/** List view: a type badge, the date, the amount, the server's sentence, the balance after and the metadata. */
export function LedgerList({ entries }: { entries: LedgerEntry[] }) {
  return (
    <ul className="divide-y rounded-md border" aria-label="Credit transactions">
      {entries.map((entry) => {
        const lines = metadataLines(entry.metadata);
        return (
          <li key={entry.id} className="space-y-2 p-4">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <div className="flex flex-wrap items-center gap-2">
                <EntryTypeBadge type={entry.entry_type} />
                <span className="text-sm text-muted-foreground">{formatDateTime(entry.created_at)}</span>
              </div>
              <span className={cn('font-medium tabular-nums', amountClass(entry.amount))}>{formatCredits(entry.amount)}</span>
            </div>
            <p className="text-sm">{entry.description}</p>
            {entry.entry_type === 'consumption' && <EntryEventsButton entry={entry} />}
            <ReversalMark entry={entry} />
            <ReverseAllocationButton entry={entry} />
            <p className="text-sm text-muted-foreground">
              By <LedgerActor entry={entry} />
              {entry.counterparty && (
                <>
                  {' · With '}
                  <LedgerCounterparty entry={entry} />
                </>
              )}
            </p>
            <p className="text-sm text-muted-foreground">
              Balance after: <span className="tabular-nums text-foreground">{formatCredits(entry.balance_after)}</span>
            </p>
            {lines.length > 0 && (
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-xs">
                {lines.map((line) => (
                  <div key={line.label} className="contents">
                    <dt className="text-muted-foreground">{line.label}</dt>
                    <dd className="break-all">{line.value}</dd>
                  </div>
                ))}
              </dl>
            )}
          </li>
        );
      })}
    </ul>
  );
}
