import { zodResolver } from '@hookform/resolvers/zod';
import { allocationReversalSchema, mayReverseAllocation, type AllocationReversalInput, type LedgerEntry } from '@console/domain';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { FormDialog } from '@/components/form-dialog';
import { LabelledControl } from '@/components/labelled-control';
import { Textarea } from '@/components/ui/textarea';
import { useReverseAllocation } from '@/api/credits';
import { useAuth } from '@/lib/auth';
import { formatCredits, formatDecimal } from '@/lib/credit-format';
import { useViewer } from '@/lib/use-viewer';
import { MESSAGES } from '@/lib/wording';

const p = MESSAGES.creditPages;
const DEFAULTS: AllocationReversalInput = { reason: '' };

/**
 * "Reverse" on an allocation the viewer's organization made, shown exactly while the rule
 * allows it (the sender's admins, within 24 hours, once, never a top-up); the server still
 * says whether the child holds the whole amount. Opens a review of what moves back and asks
 * for the reason both ledgers keep.
 */
export function ReverseAllocationButton({ entry }: { entry: LedgerEntry }) {
  const viewer = useViewer();
  // Judged at render: the ledger refreshes while visible, so the button goes once the window closes.
  // Only such a row holds a form: the other rows of a page cost nothing.
  if (!viewer || !mayReverseAllocation(viewer, entry, new Date())) return null;
  return <ReverseAllocationDialog entry={entry} />;
}

function ReverseAllocationDialog({ entry }: { entry: LedgerEntry }) {
  const { user } = useAuth();
  const [open, setOpen] = useState(false);
  const reverse = useReverseAllocation();
  const form = useForm<AllocationReversalInput>({ resolver: zodResolver(allocationReversalSchema), defaultValues: DEFAULTS });
  const { errors, isSubmitting } = form.formState;
  const amount = formatDecimal(entry.amount.replace(/^-/, ''));
  const child = entry.counterparty?.name ?? 'the child organization';
  const parent = user?.organization.id === entry.organization_id ? user.organization.name : 'your organization';

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) {
      form.reset(DEFAULTS);
      reverse.reset();
    }
  }

  async function submit(values: AllocationReversalInput) {
    try {
      const result = await reverse.mutateAsync({ transactionId: entry.transaction_group, input: values });
      toast.success(MESSAGES.credits.reversed, { description: `New balance: ${formatCredits(result.from_balance)}` });
      onOpenChange(false);
    } catch {
      // The message is shown in the dialog from the mutation's error.
    }
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      triggerLabel={p.reverse}
      triggerAriaLabel={p.reverseLabel(amount, child)}
      title={p.reverseTitle}
      description={p.reverseSummary(amount, child, parent)}
      onSubmit={(event) => void form.handleSubmit(submit)(event)}
      cancelLabel="Cancel"
      submitLabel={isSubmitting ? 'Reversing…' : p.confirmReversal}
      submitDisabled={isSubmitting}
    >
      <LabelledControl id={`reverse-reason-${entry.id}`} label="Reason" error={errors.reason?.message}>
        {(aria) => <Textarea id={`reverse-reason-${entry.id}`} {...aria} {...form.register('reason')} />}
      </LabelledControl>
      {reverse.isError && (
        <Alert variant="destructive">
          <AlertDescription>{p.reverseFailed(reverse.error.message)}</AlertDescription>
        </Alert>
      )}
    </FormDialog>
  );
}
