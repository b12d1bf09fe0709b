import { zodResolver } from '@hookform/resolvers/zod';
import { priceInputSchema, type ChildPrice, type PriceBookItem } from '@console/domain';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { ErrorAlert } from '@/components/error-alert';
import { FormDialog } from '@/components/form-dialog';
import { FormField } from '@/components/form-field';
import { LabelledControl } from '@/components/labelled-control';
import { NativeSelect } from '@/components/ui/native-select';
import { useSetChildPrice } from '@/api/pricing';
import { ApiError } from '@/lib/api';
import { formatPrice, formatUnits } from '@/lib/agents';
import { fieldOf } from '@/lib/form';
import { MESSAGES } from '../wording';
import { previewMargin } from '../price-math';

const p = MESSAGES.pricingPages;

type FormInput = { childId: string; agentTypeId: string; price: string };

const formSchema = z.object({
  childId: z.string().min(1, p.chooseRequired),
  agentTypeId: z.string().min(1, p.chooseRequired),
  // Typed as text, checked as the domain checks a price (at most four decimals).
  price: z.string().transform((typed, ctx) => {
    const parsed = priceInputSchema.safeParse(typed);
    if (parsed.success) return parsed.data;
    ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? '' });
    return z.NEVER;
  }),
});

/**
 * Sets a price for one direct child and agent type: a new one (the child and the agent chosen
 * here) or an existing one's (`current`, both fixed). The margin shows as the price is typed;
 * the server's refusal (a price below the own one) shows under the field.
 */
export function ChildPriceDialog({
  organizationId,
  children,
  agents,
  current,
}: {
  organizationId: string;
  children: { id: string; name: string }[];
  /** The book's rows a price can be set for (priced, active). */
  agents: PriceBookItem[];
  current?: ChildPrice;
}) {
  const [open, setOpen] = useState(false);
  const mutation = useSetChildPrice(organizationId);
  const initial = (): FormInput => ({
    childId: current?.child.id ?? '',
    agentTypeId: current?.agent_type.id ?? '',
    price: current ? formatUnits(current.price).replace(/,/g, '') : '',
  });
  const form = useForm<FormInput, unknown, z.output<typeof formSchema>>({
    resolver: zodResolver(formSchema),
    defaultValues: initial(),
    mode: 'onChange',
  });
  const [agentTypeId, typed] = useWatch({ control: form.control, name: ['agentTypeId', 'price'] });
  const agent = agents.find((item) => item.agent_type.id === agentTypeId);
  const own = agent?.my_price ? formatPrice(agent.my_price, agent.agent_type.unit) : null;
  const preview = agent ? previewMargin(typed, agent.my_price) : null;
  const idOf = (field: string) => `child-price-${current ? `${current.child.id}-${current.agent_type.id}` : 'new'}-${field}`;
  const errors = form.formState.errors;
  const priceError = fieldOf(form, 'price');
  const below = preview?.below && own ? p.belowOwn(own) : undefined;

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (next) {
      form.reset(initial());
      mutation.reset();
    }
  }

  async function submit(values: z.output<typeof formSchema>) {
    // Below the own price: the field already says so, and the server would refuse it.
    if (agent && previewMargin(values.price, agent.my_price)?.below) return;
    try {
      await mutation.mutateAsync(values);
      toast.success(p.childPriceSaved(children.find((c) => c.id === values.childId)?.name ?? current?.child.name ?? ''));
      setOpen(false);
    } catch (error) {
      // A price below the own one is the field's fault; any other refusal shows above the buttons.
      if (error instanceof ApiError && error.status === 422 && error.code === 'below_own_price')
        form.setError('price', { message: error.message });
    }
  }

  const refusal = mutation.isError && !(mutation.error instanceof ApiError && mutation.error.code === 'below_own_price');
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      triggerLabel={current ? p.edit : p.setChildPrice}
      triggerAriaLabel={current ? p.editChildLabel(current.child.name, current.agent_type.name) : undefined}
      title={current ? p.childPriceEditTitle(current.child.name, current.agent_type.name) : p.childPriceTitle}
      description={own ? p.childPriceDescription(own) : p.childPriceChooseDescription}
      onSubmit={(event) => void form.handleSubmit(submit)(event)}
      cancelLabel={p.cancel}
      submitLabel={form.formState.isSubmitting ? p.saving : p.save}
      submitDisabled={form.formState.isSubmitting}
    >
      {!current && (
        <>
          <LabelledControl id={idOf('child')} label={p.childLabel} error={errors.childId?.message}>
            {(aria) => (
              <NativeSelect id={idOf('child')} {...aria} {...form.register('childId')}>
                <option value="" disabled>
                  {p.chooseChild}
                </option>
                {children.map((child) => (
                  <option key={child.id} value={child.id}>
                    {child.name}
                  </option>
                ))}
              </NativeSelect>
            )}
          </LabelledControl>
          <LabelledControl id={idOf('agent')} label={p.agentLabel} error={errors.agentTypeId?.message}>
            {(aria) => (
              <NativeSelect id={idOf('agent')} {...aria} {...form.register('agentTypeId')}>
                <option value="" disabled>
                  {p.chooseAgent}
                </option>
                {agents.map((item) => (
                  <option key={item.agent_type.id} value={item.agent_type.id}>
                    {item.agent_type.name}
                  </option>
                ))}
              </NativeSelect>
            )}
          </LabelledControl>
        </>
      )}
      <FormField
        id={idOf('price')}
        label={p.priceLabel(agent?.agent_type.unit ?? current?.agent_type.unit ?? 'unit')}
        inputMode="decimal"
        autoComplete="off"
        {...priceError}
        error={priceError.error ?? below}
      />
      <p className="text-sm" aria-live="polite" data-testid="child-margin-preview">
        {preview && own && !preview.below && p.marginPreview(formatUnits(preview.margin))}
      </p>
      {refusal && <ErrorAlert title={p.saveFailed} message={mutation.error?.message} />}
    </FormDialog>
  );
}
