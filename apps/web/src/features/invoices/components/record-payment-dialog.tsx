import { zodResolver } from '@hookform/resolvers/zod';
import { PAYMENT_METHODS, PAYMENT_METHOD_LABELS, paymentInputSchema, type InvoiceDetail, type PaymentInput } from '@console/domain';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { useRecordPayment } from '@/api/invoices';
import { ErrorAlert } from '@/components/error-alert';
import { FormDialog } from '@/components/form-dialog';
import { FormField } from '@/components/form-field';
import { LabelledControl } from '@/components/labelled-control';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { applyServerErrors, fieldOf } from '@/lib/form';
import { MESSAGES } from '../wording';
import { formatMoney, todayUtc } from '../format';

const w = MESSAGES.invoicePages;
const FIELDS = ['amount', 'paid_on', 'method', 'reference'] as const;

/** The fields as typed, checked by the domain's own schema. */
const formSchema = z
  .object({ amount: z.string(), paid_on: z.string(), method: z.enum(PAYMENT_METHODS), reference: z.string() })
  .transform((form): PaymentInput => form)
  .pipe(paymentInputSchema);
type Form = z.input<typeof formSchema>;
type Body = z.output<typeof formSchema>;

/**
 * Record payment (the seller's admins): the amount still owed, today, a method and an optional
 * reference to start with. A partial payment is fine; the server refuses more than is owed,
 * and its reason stays in the dialog.
 */
export function RecordPaymentDialog({ invoice }: { invoice: InvoiceDetail }) {
  const [open, setOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const record = useRecordPayment(invoice.id);
  const initial = (): Form => ({ amount: invoice.outstanding, paid_on: todayUtc(), method: 'bank_transfer', reference: '' });
  const form = useForm<Form, unknown, Body>({ resolver: zodResolver(formSchema), defaultValues: initial() });
  const { errors, isSubmitting } = form.formState;

  function onOpenChange(next: boolean) {
    setOpen(next);
    setFailure(null);
    if (next) form.reset(initial());
    else record.reset();
  }

  async function submit(body: Body) {
    setFailure(null);
    try {
      await record.mutateAsync(body);
      toast.success(w.recorded);
      setOpen(false);
    } catch (error) {
      setFailure(applyServerErrors(error, FIELDS, form.setError));
    }
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      triggerLabel={w.recordPayment}
      title={w.recordTitle(invoice.number)}
      description={w.recordBody(formatMoney(invoice.outstanding, invoice.currency))}
      onSubmit={(event) => void form.handleSubmit(submit)(event)}
      cancelLabel={w.cancel}
      submitLabel={isSubmitting ? w.recording : w.record}
      submitDisabled={isSubmitting}
    >
      <FormField
        id="payment-amount"
        label={w.amount(invoice.currency)}
        inputMode="decimal"
        autoComplete="off"
        {...fieldOf(form, 'amount')}
      />
      <FormField id="payment-date" label={w.paidOn} type="date" max={todayUtc()} {...fieldOf(form, 'paid_on')} />
      <LabelledControl id="payment-method" label={w.method} error={errors.method?.message}>
        {(aria) => (
          <NativeSelect id="payment-method" {...aria} {...form.register('method')}>
            {PAYMENT_METHODS.map((method) => (
              <option key={method} value={method}>
                {PAYMENT_METHOD_LABELS[method]}
              </option>
            ))}
          </NativeSelect>
        )}
      </LabelledControl>
      <LabelledControl id="payment-reference" label={w.reference} hint={w.referenceHint} error={errors.reference?.message}>
        {(aria) => <Input id="payment-reference" autoComplete="off" {...aria} {...form.register('reference')} />}
      </LabelledControl>
      {failure && <ErrorAlert title={w.recordFailed} message={failure} />}
    </FormDialog>
  );
}
