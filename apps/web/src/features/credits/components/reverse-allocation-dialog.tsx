import { mayReverseAllocation, type LedgerEntry } from '@console/domain';
import { ReverseAllocationDialog } from '@/components/credits/reverse-allocation-dialog';
import { useAuth } from '@/lib/auth';
import { useViewer } from '@/lib/use-viewer';

/**
 * "Reverse" on an allocation the viewer's organization made (an automatic top-up too), shown
 * exactly while the rule allows it (the sender's admins, within 24 hours, once); the server
 * still says whether the child holds the whole amount.
 */
export function ReverseAllocationButton({ entry }: { entry: LedgerEntry }) {
  const viewer = useViewer();
  const { user } = useAuth();
  // Judged at render: the ledger refreshes while visible, so the button goes once the window closes.
  // Only such a row holds a form: the other rows of a page cost nothing.
  if (!viewer || !mayReverseAllocation(viewer, entry, new Date())) return null;
  return (
    <ReverseAllocationDialog
      allocation={{
        transactionId: entry.transaction_group,
        amount: entry.amount,
        childName: entry.counterparty?.name ?? 'the child organization',
        parentName: user?.organization.id === entry.organization_id ? user.organization.name : 'your organization',
      }}
    />
  );
}
