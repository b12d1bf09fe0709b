import { zodResolver } from '@hookform/resolvers/zod';
import { priceInputSchema, type PriceBookItem } from '@console/domain';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { ErrorAlert } from '@/components/error-alert';
import { FormDialog } from '@/components/form-dialog';
import { FormField } from '@/components/form-field';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { useSetPrice } from '@/api/pricing';
import { ApiError } from '@/lib/api';
import { formatPrice, formatUnits } from '@/lib/agents';
import { fieldOf } from '@/lib/form';
import { MESSAGES } from '../wording';
import { previewMargin } from '../price-math';

const p = MESSAGES.pricingPages;

type FormInput = { through: boolean; price: string };

/** Pass-through sends null; otherwise the price must be one the domain takes (at most four decimals). */
const formSchema = z
  .object({ through: z.boolean(), price: z.string() })
  .superRefine((values, ctx) => {
    if (values.through) return;
    const parsed = priceInputSchema.safeParse(values.price);
    if (!parsed.success) ctx.addIssue({ code: 'custom', path: ['price'], message: parsed.error.issues[0]?.message ?? '' });
  })
  .transform((values) => ({ price: values.through ? null : priceInputSchema.parse(values.price) }));

function valuesOf(item: PriceBookItem): FormInput {
  return { through: item.book_price === null, price: item.book_price ? formatUnits(item.book_price).replace(/,/g, '') : '' };
}

/**
 * Edit: what the organization's direct children pay for one agent type, or its own price
 * passed through. As the price is typed the field says what is wrong with it (not a price, or
 * below the own price: one message, the own price as the page shows it) or the margin it
 * gives; a price below the own one is not sent. The server's refusal (the own price rose
 * meanwhile) shows under the field.
 */
export function EditPriceDialog({ organizationId, item }: { organizationId: string; item: PriceBookItem }) {
  const { agent_type: agent } = item;
  const [open, setOpen] = useState(false);
  const mutation = useSetPrice(organizationId);
  const form = useForm<FormInput, unknown, z.output<typeof formSchema>>({
    resolver: zodResolver(formSchema),
    defaultValues: valuesOf(item),
    mode: 'onChange',
  });
  const [through, typed] = useWatch({ control: form.control, name: ['through', 'price'] });
  const preview = through ? null : previewMargin(typed, item.my_price);
  const own = item.my_price ? formatPrice(item.my_price, agent.unit) : p.noPrice;
  const idOf = (field: string) => `price-${agent.id}-${field}`;
  const priceError = fieldOf(form, 'price');
  const below = preview?.below ? p.belowOwn(own) : undefined;

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (next) {
      form.reset(valuesOf(item));
      mutation.reset();
    }
  }

  async function submit({ price }: z.output<typeof formSchema>) {
    // Below the own price: the field already says so, and the server would refuse it.
    if (price !== null && previewMargin(price, item.my_price)?.below) return;
    try {
      await mutation.mutateAsync({ agentTypeId: agent.id, price });
      toast.success(p.saved(agent.name));
      setOpen(false);
    } catch (error) {
      // A price below the own one is the field's fault; any other refusal shows above the buttons.
      if (error instanceof ApiError && error.status === 422) form.setError('price', { message: error.message });
    }
  }

  const refusal = mutation.isError && !(mutation.error instanceof ApiError && mutation.error.status === 422);
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      triggerLabel={p.edit}
      triggerAriaLabel={p.editLabel(agent.name)}
      title={p.editTitle(agent.name)}
      description={p.editDescription(own)}
      onSubmit={(event) => void form.handleSubmit(submit)(event)}
      cancelLabel={p.cancel}
      submitLabel={form.formState.isSubmitting ? p.saving : p.save}
      submitDisabled={form.formState.isSubmitting}
    >
      <div className="flex items-start gap-3">
        <Controller
          control={form.control}
          name="through"
          render={({ field }) => (
            <Switch
              id={idOf('through')}
              checked={field.value}
              onCheckedChange={(checked) => {
                field.onChange(checked);
                form.clearErrors('price');
              }}
              aria-describedby={idOf('through-hint')}
              className="mt-0.5"
            />
          )}
        />
        <div className="grid gap-1">
          <Label htmlFor={idOf('through')}>{p.passThroughLabel}</Label>
          <p id={idOf('through-hint')} className="text-sm text-muted-foreground">
            {p.passThroughHint}
          </p>
        </div>
      </div>
      {!through && (
        <FormField
          id={idOf('price')}
          label={p.priceLabel(agent.unit)}
          inputMode="decimal"
          autoComplete="off"
          {...priceError}
          error={priceError.error ?? below}
        />
      )}
      <p className="text-sm" aria-live="polite" data-testid="margin-preview">
        {through ? p.marginPreview('0') : preview && !preview.below && p.marginPreview(formatUnits(preview.margin))}
      </p>
      {refusal && <ErrorAlert title={p.saveFailed} message={mutation.error?.message} />}
    </FormDialog>
  );
}
