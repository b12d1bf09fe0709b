import { zodResolver } from '@hookform/resolvers/zod';
import { adjustmentSchema } from '@console/domain';
import { useEffect, useState } from 'react';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { LabelledControl } from '@/components/labelled-control';
import { Textarea } from '@/components/ui/textarea';
import { useAdjustBalance } from '@/api/credits';
import { formatCredits } from '@/lib/credit-format';
import { applyServerErrors, fieldOf } from '@/lib/form';
import { amountFieldSchema } from '../amount-field';
import { NO_TERMS, TERMS_FIELDS, termsFieldsSchema } from '../grant-terms';
import { MESSAGES } from '../wording';
import { AmountField } from './amount-field';
import { GrantTermsFields } from './grant-terms-fields';

const p = MESSAGES.creditPages;

const adjustFormSchema = z.object({
  direction: adjustmentSchema.shape.direction,
  amount: amountFieldSchema,
  reason: adjustmentSchema.shape.reason,
  /** Terms of credits added (an increase only): at their expiry what is left returns to the house's open credits. */
  terms: termsFieldsSchema,
});
type AdjustFormInput = z.input<typeof adjustFormSchema>;
type AdjustFormOutput = z.output<typeof adjustFormSchema>;

const DEFAULTS: AdjustFormInput = { direction: 'increase', amount: '', reason: '', terms: NO_TERMS };

/** House admins add credits to their own house or remove them, with a reason (a ledger adjustment). */
export function AdjustBalanceDialog() {
  const [open, setOpen] = useState(false);
  const adjust = useAdjustBalance();
  const form = useForm<AdjustFormInput, unknown, AdjustFormOutput>({
    resolver: zodResolver(adjustFormSchema),
    defaultValues: DEFAULTS,
  });
  const { errors, isSubmitting } = form.formState;
  // Only credits that are added carry terms: a decrease drops them.
  const direction = useWatch({ control: form.control, name: 'direction' });
  useEffect(() => {
    if (direction === 'decrease') form.setValue('terms', NO_TERMS);
  }, [direction, form]);

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) {
      form.reset(DEFAULTS);
      adjust.reset();
    }
  }

  async function submit({ terms, ...values }: AdjustFormOutput) {
    try {
      const entry = await adjust.mutateAsync({ ...values, ...(terms && values.direction === 'increase' && { terms }) });
      toast.success(p.adjusted, { description: `New balance: ${formatCredits(entry.balance_after)}` });
      onOpenChange(false);
    } catch (error) {
      // The message is shown in the dialog from the mutation's error; a refused term on its field too.
      applyServerErrors(error, TERMS_FIELDS, form.setError);
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="outline">{p.adjustBalance}</Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90vh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{p.adjustBalance}</DialogTitle>
          <DialogDescription>{p.adjustDescription}</DialogDescription>
        </DialogHeader>
        <FormProvider {...form}>
          <form noValidate className="space-y-4" onSubmit={(event) => void form.handleSubmit(submit)(event)}>
            <fieldset className="grid gap-2">
              <legend className="mb-2 text-sm font-medium">Direction</legend>
              <div className="flex flex-wrap gap-4">
                <label className="flex items-center gap-2 text-sm">
                  <input type="radio" value="increase" {...form.register('direction')} />
                  Increase
                </label>
                <label className="flex items-center gap-2 text-sm">
                  <input type="radio" value="decrease" {...form.register('direction')} />
                  Decrease
                </label>
              </div>
            </fieldset>
            <AmountField id="adjust-amount" {...fieldOf(form, 'amount')} />
            <LabelledControl id="adjust-reason" label="Reason" error={errors.reason?.message}>
              {(aria) => <Textarea id="adjust-reason" {...aria} {...form.register('reason')} />}
            </LabelledControl>
            {direction === 'increase' && <GrantTermsFields idPrefix="adjust" />}
            {adjust.isError && (
              <Alert variant="destructive">
                <AlertDescription>{p.adjustFailed(adjust.error.message)}</AlertDescription>
              </Alert>
            )}
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={isSubmitting}>
                {isSubmitting ? 'Saving…' : 'Save adjustment'}
              </Button>
            </DialogFooter>
          </form>
        </FormProvider>
      </DialogContent>
    </Dialog>
  );
}
