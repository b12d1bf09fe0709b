import type { LedgerEntry } from '@console/domain';
import { Badge } from '@/components/ui/badge';
import { MESSAGES } from '../wording';

/** "Reversed" under an allocation that was given back; its reversal is the pair of entries that name it. */
export function ReversalMark({ entry }: { entry: LedgerEntry }) {
  if (!entry.reversed_by) return null;
  return (
    <div>
      <Badge variant="outline" title={`Reversal ${entry.reversed_by}`}>
        {MESSAGES.creditPages.reversed}
      </Badge>
    </div>
  );
}
