import type { LedgerEntry } from '@console/domain';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { cn } from '@/lib/utils';
import { EntryTypeBadge } from '@/components/credits/entry-type-badge';
import { amountClass, formatCredits } from '@/lib/credit-format';
import { formatDateTime } from '@/lib/dates';
import { EntryEventsButton } from './entry-events-dialog';
import { LedgerActor, LedgerCounterparty } from './ledger-parties';
import { ReversalMark } from './reversal-mark';
import { ReverseAllocationButton } from './reverse-allocation-dialog';

/**
 * Table view: Date, Type, Description (the server's sentence), By, With, Amount, Balance. The
 * date and the names wrap, so that beside the sidebar the sentence keeps its room and the
 * figures stay in the card; only the figures never wrap.
 */
export function LedgerTable({ entries }: { entries: LedgerEntry[] }) {
  return (
    <Table aria-label="Credit transactions">
      <TableHeader>
        <TableRow>
          <TableHead>Date</TableHead>
          <TableHead>Type</TableHead>
          <TableHead>Description</TableHead>
          <TableHead>By</TableHead>
          <TableHead>With</TableHead>
          <TableHead className="text-right">Amount</TableHead>
          <TableHead className="text-right">Balance</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {entries.map((entry) => (
          <TableRow key={entry.id}>
            <TableCell className="min-w-28 whitespace-normal">{formatDateTime(entry.created_at)}</TableCell>
            <TableCell>
              <EntryTypeBadge type={entry.entry_type} />
            </TableCell>
            <TableCell className="max-w-80 min-w-48 whitespace-normal wrap-anywhere" title={entry.description}>
              {entry.description}
              {entry.entry_type === 'consumption' && (
                <div>
                  <EntryEventsButton entry={entry} />
                </div>
              )}
              <ReversalMark entry={entry} />
              <ReverseAllocationButton entry={entry} />
            </TableCell>
            <TableCell className="min-w-24 whitespace-normal wrap-anywhere">
              <LedgerActor entry={entry} />
            </TableCell>
            <TableCell className="min-w-24 whitespace-normal wrap-anywhere">
              <LedgerCounterparty entry={entry} />
            </TableCell>
            <TableCell className={cn('text-right font-medium tabular-nums', amountClass(entry.amount))}>
              {formatCredits(entry.amount)}
            </TableCell>
            <TableCell className="text-right tabular-nums">{formatCredits(entry.balance_after)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
