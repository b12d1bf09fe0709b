import { zodResolver } from '@hookform/resolvers/zod';
import { monthlyCapSchema, type Activation, type MonthlyCapInput } from '@console/domain';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { useSetActivationCap } from '@/api/agents';
import { ErrorAlert } from '@/components/error-alert';
import { FormDialog } from '@/components/form-dialog';
import { FormField } from '@/components/form-field';
import { MESSAGES } from '../wording';

const s = MESSAGES.spendPages;

const orNull = (text: string) => (text.trim() === '' ? null : text);
/** The caps as typed: empty removes one (null), anything else is checked as the server checks it. */
const formSchema = z
  .object({ monthly_cap: z.string(), weekly_cap: z.string(), daily_cap: z.string() })
  .transform(
    (v): MonthlyCapInput => ({ monthly_cap: orNull(v.monthly_cap), weekly_cap: orNull(v.weekly_cap), daily_cap: orNull(v.daily_cap) }),
  )
  .pipe(monthlyCapSchema);
type Form = z.input<typeof formSchema>;
type Body = z.output<typeof formSchema>;

/** Set caps: what an activation may charge in a day, an ISO week and a calendar month (UTC), each or none. */
export function ActivationCapDialog({ organizationId, activation }: { organizationId: string; activation: Activation }) {
  const [open, setOpen] = useState(false);
  const save = useSetActivationCap(organizationId);
  const name = activation.agent_type.name;
  const initial = (): Form => ({
    monthly_cap: activation.monthly_cap.cap ?? '',
    weekly_cap: activation.weekly_cap.cap ?? '',
    daily_cap: activation.daily_cap.cap ?? '',
  });
  const form = useForm<Form, unknown, Body>({ resolver: zodResolver(formSchema), defaultValues: initial() });
  const { errors, isSubmitting } = form.formState;

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (next) form.reset(initial());
    else save.reset();
  }

  async function submit(caps: Body) {
    try {
      await save.mutateAsync({ activationId: activation.id, caps });
      toast.success(s.capSaved(name));
      setOpen(false);
    } catch {
      // The refusal is shown in the dialog.
    }
  }

  const id = `activation-cap-${activation.id}`;
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      triggerLabel={s.setCap}
      triggerAriaLabel={s.setCapAria(name)}
      title={s.activationCapTitle(name)}
      description={s.activationCapDescription}
      onSubmit={(event) => void form.handleSubmit(submit)(event)}
      cancelLabel={MESSAGES.agentPages.cancel}
      submitLabel={isSubmitting ? s.saving : s.save}
      submitDisabled={isSubmitting}
    >
      <FormField
        id={id}
        label={s.monthlyCapLabel}
        inputMode="decimal"
        autoComplete="off"
        placeholder={s.noCap}
        error={errors.monthly_cap?.message}
        {...form.register('monthly_cap')}
      />
      <FormField
        id={`${id}-weekly`}
        label={s.weeklyCapLabel}
        inputMode="decimal"
        autoComplete="off"
        placeholder={s.noCap}
        error={errors.weekly_cap?.message}
        {...form.register('weekly_cap')}
      />
      <FormField
        id={`${id}-daily`}
        label={s.dailyCapLabel}
        inputMode="decimal"
        autoComplete="off"
        placeholder={s.noCap}
        error={errors.daily_cap?.message}
        {...form.register('daily_cap')}
      />
      {save.isError && <ErrorAlert title={s.capSaveFailed} message={save.error.message} />}
    </FormDialog>
  );
}
