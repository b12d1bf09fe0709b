import { zodResolver } from '@hookform/resolvers/zod';
import { allocationReversalSchema, type AllocationReversalInput } from '@console/domain';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { FormDialog } from '@/components/form-dialog';
import { LabelledControl } from '@/components/labelled-control';
import { Textarea } from '@/components/ui/textarea';
import { useReverseAllocation } from '@/api/credits';
import { formatCredits, formatDecimal } from '@/lib/credit-format';
import { MESSAGES } from '@/lib/wording';

const p = MESSAGES.creditPages;
const DEFAULTS: AllocationReversalInput = { reason: '' };

export interface ReversibleAllocation {
  /** The allocation's transaction, as the ledger names it. */
  transactionId: string;
  /** What moved, without a sign. */
  amount: string;
  /** The child that received it, and the organization that sent it (the viewer's). */
  childName: string;
  parentName: string;
}

/**
 * Reverse on an allocation (an automatic top-up too): a review of what moves back and the
 * reason both ledgers keep. The caller mounts it only where the reversal rule lets the viewer
 * reverse it; the server still says whether the child holds the whole amount, shown here.
 */
export function ReverseAllocationDialog({ allocation }: { allocation: ReversibleAllocation }) {
  const [open, setOpen] = useState(false);
  const reverse = useReverseAllocation();
  const form = useForm<AllocationReversalInput>({ resolver: zodResolver(allocationReversalSchema), defaultValues: DEFAULTS });
  const { errors, isSubmitting } = form.formState;
  const amount = formatDecimal(allocation.amount.replace(/^-/, ''));
  const { childName: child, parentName: parent } = allocation;
  const reasonId = `reverse-reason-${allocation.transactionId}`;

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) {
      form.reset(DEFAULTS);
      reverse.reset();
    }
  }

  async function submit(values: AllocationReversalInput) {
    try {
      const result = await reverse.mutateAsync({ transactionId: allocation.transactionId, input: values });
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
      <LabelledControl id={reasonId} label="Reason" error={errors.reason?.message}>
        {(aria) => <Textarea id={reasonId} {...aria} {...form.register('reason')} />}
      </LabelledControl>
      {reverse.isError && (
        <Alert variant="destructive">
          <AlertDescription>{p.reverseFailed(reverse.error.message)}</AlertDescription>
        </Alert>
      )}
    </FormDialog>
  );
}
