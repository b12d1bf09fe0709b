import { zodResolver } from '@hookform/resolvers/zod';
import { reasonInputSchema } from '@console/domain';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { ErrorAlert } from '@/components/error-alert';
import { FormDialog } from '@/components/form-dialog';
import { LabelledControl } from '@/components/labelled-control';
import { Textarea } from '@/components/ui/textarea';
import { MESSAGES } from '../wording';

const w = MESSAGES.invoicePages;
type Form = z.input<typeof reasonInputSchema>;
type Body = z.output<typeof reasonInputSchema>;

export interface ReasonDialogWording {
  trigger: string;
  triggerAria?: string;
  title: string;
  description: string;
  confirm: string;
  pending: string;
  done: string;
  failed: string;
}

/**
 * An action on an invoice that needs a reason (reversing a payment, voiding): the dialog asks
 * for it (required, as the server's schema says), confirms, and keeps the server's refusal in view.
 */
export function ReasonDialog({
  id,
  wording,
  onConfirm,
}: {
  id: string;
  wording: ReasonDialogWording;
  onConfirm(reason: string): Promise<unknown>;
}) {
  const [open, setOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<Form, unknown, Body>({ resolver: zodResolver(reasonInputSchema), defaultValues: { reason: '' } });
  const { errors, isSubmitting } = form.formState;
  const fieldId = `${id}-reason`;

  function onOpenChange(next: boolean) {
    setOpen(next);
    setFailure(null);
    if (!next) form.reset({ reason: '' });
  }

  async function submit({ reason }: Body) {
    setFailure(null);
    try {
      await onConfirm(reason);
      toast.success(wording.done);
      onOpenChange(false);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : MESSAGES.generic.unexpected);
    }
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      triggerLabel={wording.trigger}
      triggerAriaLabel={wording.triggerAria}
      title={wording.title}
      description={wording.description}
      onSubmit={(event) => void form.handleSubmit(submit)(event)}
      cancelLabel={w.cancel}
      submitLabel={isSubmitting ? wording.pending : wording.confirm}
      submitDisabled={isSubmitting}
    >
      <LabelledControl id={fieldId} label={w.reason} error={errors.reason?.message}>
        {(aria) => <Textarea id={fieldId} rows={3} {...aria} {...form.register('reason')} />}
      </LabelledControl>
      {failure && <ErrorAlert title={wording.failed} message={failure} />}
    </FormDialog>
  );
}
