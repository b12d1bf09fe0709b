import { zodResolver } from '@hookform/resolvers/zod';
import { spendControlsInputSchema, type SpendControls, type SpendControlsInput } from '@console/domain';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { useSetSpendControls } from '@/api/billing';
import { ErrorAlert } from '@/components/error-alert';
import { FormDialog } from '@/components/form-dialog';
import { FormField } from '@/components/form-field';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { MESSAGES } from '@/lib/wording';

const s = MESSAGES.spendPages;

/** The fields as typed, read into the server's body (an empty cap is none; a switched-off top-up is none) and checked by its schema. */
const formSchema = z
  .object({
    spend_cap: z.string(),
    top_up_on: z.boolean(),
    top_up: z.object({ below: z.string(), amount: z.string(), monthly_max: z.string() }),
  })
  .transform(
    ({ spend_cap, top_up_on, top_up }): SpendControlsInput => ({
      spend_cap: spend_cap.trim() === '' ? null : spend_cap,
      top_up: top_up_on ? top_up : null,
    }),
  )
  .pipe(spendControlsInputSchema);
type Form = z.input<typeof formSchema>;
type Body = z.output<typeof formSchema>;

const formOf = (controls: SpendControls): Form => ({
  spend_cap: controls.spend_cap.cap ?? '',
  top_up_on: controls.top_up !== null,
  top_up: controls.top_up ?? { below: '', amount: '', monthly_max: '' },
});

/** Edit a direct child's monthly spend cap and automatic top-up (its parent's admins). */
export function SpendControlsDialog({ organizationName, controls }: { organizationName: string; controls: SpendControls }) {
  const [open, setOpen] = useState(false);
  const save = useSetSpendControls(controls.organization_id);
  const form = useForm<Form, unknown, Body>({ resolver: zodResolver(formSchema), defaultValues: formOf(controls) });
  const topUpOn = useWatch({ control: form.control, name: 'top_up_on' });
  const { errors, isSubmitting } = form.formState;

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (next) form.reset(formOf(controls));
    else save.reset();
  }

  async function submit(body: Body) {
    try {
      await save.mutateAsync(body);
      toast.success(s.saved);
      setOpen(false);
    } catch {
      // The refusal is shown in the dialog.
    }
  }

  const field = (name: 'below' | 'amount' | 'monthly_max', label: string) => (
    <FormField
      id={`top-up-${name}`}
      label={label}
      inputMode="decimal"
      autoComplete="off"
      error={errors.top_up?.[name]?.message}
      {...form.register(`top_up.${name}`)}
    />
  );

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      triggerLabel={s.edit}
      triggerAriaLabel={s.editAria}
      title={s.editTitle(organizationName)}
      description={s.editDescription}
      onSubmit={(event) => void form.handleSubmit(submit)(event)}
      cancelLabel={MESSAGES.agentPages.cancel}
      submitLabel={isSubmitting ? s.saving : s.save}
      submitDisabled={isSubmitting}
    >
      <FormField
        id="spend-cap"
        label={s.capLabel}
        inputMode="decimal"
        autoComplete="off"
        placeholder={s.noCap}
        error={errors.spend_cap?.message}
        {...form.register('spend_cap')}
      />
      <div className="flex items-center gap-3">
        <Controller
          control={form.control}
          name="top_up_on"
          render={({ field: toggle }) => <Switch id="top-up-on" checked={toggle.value} onCheckedChange={toggle.onChange} />}
        />
        <Label htmlFor="top-up-on">{s.topUpSwitch}</Label>
      </div>
      {topUpOn && (
        <div className="grid gap-4">
          {field('below', s.belowLabel)}
          {field('amount', s.amountLabel)}
          {field('monthly_max', s.monthlyMaxLabel)}
        </div>
      )}
      {save.isError && <ErrorAlert title={s.saveFailed} message={save.error.message} />}
    </FormDialog>
  );
}
