import { zodResolver } from '@hookform/resolvers/zod';
import { billingDetailsInputSchema, type BillingDetails, type BillingDetailsInput } from '@console/domain';
import { useState, type ComponentProps } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { useSetBillingDetails } from '@/api/invoices';
import { ErrorAlert } from '@/components/error-alert';
import { LabelledControl } from '@/components/labelled-control';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { applyServerErrors } from '@/lib/form';
import { useUnsavedChangesGuard } from '@/lib/use-unsaved-changes';
import { MESSAGES } from '../wording';
import { plainRate } from '../format';

const d = MESSAGES.invoicePages.details;

const FIELDS = [
  'legal_name',
  'address',
  'tax_id',
  'currency',
  'credit_price',
  'tax_rate',
  'tax_label',
  'terms_days',
  'number_prefix',
  'note',
] as const;
type FieldName = (typeof FIELDS)[number];

/**
 * The fields as typed, checked by the domain's own schema (so each message is the server's):
 * empty payment terms are no terms at all, not 0 days.
 */
const formSchema = z
  .object(Object.fromEntries(FIELDS.map((name) => [name, z.string()])) as Record<FieldName, z.ZodString>)
  .transform((form): BillingDetailsInput => ({ ...form, terms_days: form.terms_days.trim() === '' ? undefined : form.terms_days }))
  .pipe(billingDetailsInputSchema);
type Form = z.input<typeof formSchema>;
type Body = z.output<typeof formSchema>;

function formOf(details: BillingDetails | null): Form {
  return {
    legal_name: details?.legal_name ?? '',
    address: details?.address ?? '',
    tax_id: details?.tax_id ?? '',
    currency: details?.currency ?? '',
    credit_price: details?.credit_price ?? '',
    tax_rate: details ? plainRate(details.tax_rate) : '0',
    tax_label: details?.tax_label ?? 'Tax',
    terms_days: String(details?.terms_days ?? 30),
    number_prefix: details?.number_prefix ?? '',
    note: details?.note ?? '',
  };
}

/** The digits of the next number as printed ("ACME-000042" → "000042"), for the preview under a new prefix. */
const digitsOf = (number: string) => /(\d+)$/.exec(number)?.[1] ?? number;

/**
 * Settings > Billing details for the seller's admins: every field with its hint, the next
 * invoice number as the prefix typed would print it, and Save (the server asks for a step-up).
 */
export function BillingDetailsForm({
  organizationId,
  details,
  nextNumber,
}: {
  organizationId: string;
  details: BillingDetails | null;
  nextNumber: string;
}) {
  const save = useSetBillingDetails(organizationId);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<Form, unknown, Body>({ resolver: zodResolver(formSchema), defaultValues: formOf(details) });
  const { errors, isSubmitting, isDirty } = form.formState;
  useUnsavedChangesGuard(isDirty);
  const prefix = useWatch({ control: form.control, name: 'number_prefix' });
  const preview = `${prefix.trim()}${digitsOf(nextNumber)}`;

  async function submit(body: Body) {
    setFailure(null);
    try {
      const answer = await save.mutateAsync(body);
      form.reset(formOf(answer.details));
      toast.success(d.saved);
    } catch (error) {
      setFailure(applyServerErrors(error, FIELDS, form.setError));
    }
  }

  const field = (name: FieldName, label: string, hint?: string, props: ComponentProps<'input'> = {}) => {
    const id = `billing-${name.replace(/_/g, '-')}`;
    return (
      <LabelledControl id={id} label={label} hint={hint} error={errors[name]?.message}>
        {(aria) => <Input id={id} autoComplete="off" {...aria} {...props} {...form.register(name)} />}
      </LabelledControl>
    );
  };
  const area = (name: 'address' | 'note', label: string, hint: string, rows: number) => {
    const id = `billing-${name}`;
    return (
      <LabelledControl id={id} label={label} hint={hint} error={errors[name]?.message}>
        {(aria) => <Textarea id={id} rows={rows} {...aria} {...form.register(name)} />}
      </LabelledControl>
    );
  };

  return (
    <form noValidate className="space-y-6" onSubmit={(event) => void form.handleSubmit(submit)(event)}>
      {failure && <ErrorAlert title={d.saveFailed} message={failure} />}
      <div className="grid gap-4">
        {field('legal_name', d.legalName, undefined, { autoComplete: 'organization' })}
        {area('address', d.address, d.addressHint, 4)}
        {field('tax_id', d.taxId, d.taxIdHint)}
      </div>
      <div className="grid items-start gap-4 sm:grid-cols-2">
        {field('currency', d.currency, d.currencyHint, { className: 'uppercase', spellCheck: false, autoCapitalize: 'characters' })}
        {field('credit_price', d.creditPrice, d.creditPriceHint, { inputMode: 'decimal' })}
        {field('tax_rate', d.taxRate, d.taxRateHint, { inputMode: 'decimal' })}
        {field('tax_label', d.taxLabel, d.taxLabelHint)}
        {field('terms_days', d.termsDays, d.termsDaysHint, { inputMode: 'numeric' })}
        <div className="grid content-start gap-2">
          {field('number_prefix', d.numberPrefix, d.numberPrefixHint, { spellCheck: false })}
          <p className="text-sm" aria-live="polite" data-testid="next-number">
            {d.nextNumber(preview)}
          </p>
        </div>
      </div>
      {area('note', d.note, d.noteHint, 3)}
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? d.saving : d.save}
      </Button>
    </form>
  );
}
