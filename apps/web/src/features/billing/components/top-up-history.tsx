import type { TopUpRecord } from '@console/domain';
import { ReverseAllocationDialog } from '@/components/credits/reverse-allocation-dialog';
import { Badge } from '@/components/ui/badge';
import { formatCredits } from '@/lib/credit-format';
import { formatDateTime } from '@/lib/dates';
import { MESSAGES } from '../wording';

const s = MESSAGES.spendPages;

function purpose(record: TopUpRecord): string {
  const balance = record.balance === null ? null : formatCredits(record.balance);
  return record.reason === 'crossed'
    ? s.topUpForCrossed(balance)
    : s.topUpForRefused(record.refused === null ? null : formatCredits(record.refused), balance);
}

/**
 * This month's top-ups of a child, latest first: what each was for (a crossing below the line,
 * or usage refused for want of credits), what became of it, and Reverse on one the server says
 * the viewer may take back (its parent's admins, within 24 hours, once).
 */
export function TopUpHistory({ records, childName, parentName }: { records: TopUpRecord[]; childName: string; parentName: string }) {
  return (
    <section className="grid gap-2 text-sm" aria-labelledby="top-ups-heading">
      <h2 id="top-ups-heading" className="font-medium">
        {s.topUpsHeading}
      </h2>
      {records.length === 0 ? (
        <p className="text-muted-foreground">{s.noTopUps}</p>
      ) : (
        <ul className="divide-y rounded-md border" data-testid="top-up-history">
          {records.map((record) => (
            <li
              key={`${record.at}-${record.transaction_id ?? record.outcome}`}
              className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center"
            >
              <div className="grid min-w-0 flex-1 gap-0.5">
                <p>{purpose(record)}</p>
                <p className="text-muted-foreground">
                  {formatDateTime(record.at)} ·{' '}
                  {record.outcome === 'topped_up' && record.amount
                    ? s.topUpMoved(formatCredits(record.amount))
                    : s.outcomes[record.outcome]}
                </p>
              </div>
              {record.reversed_by && <Badge variant="secondary">{s.topUpReversed}</Badge>}
              {record.can_reverse && record.transaction_id && record.amount && (
                <ReverseAllocationDialog
                  allocation={{ transactionId: record.transaction_id, amount: record.amount, childName, parentName }}
                />
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
