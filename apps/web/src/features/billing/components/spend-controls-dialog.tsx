import { zodResolver } from '@hookform/resolvers/zod';
import { spendControlsInputSchema, toCents, type SpendControls, type SpendControlsInput } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { billingQueries, useSetSpendControls } from '@/api/billing';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { ErrorAlert } from '@/components/error-alert';
import { FormDialog } from '@/components/form-dialog';
import { FormField } from '@/components/form-field';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { formatCredits } from '@/lib/credit-format';
import { MESSAGES } from '../wording';
import { CapBelowChargedWarning } from './cap-below-charged-warning';

const s = MESSAGES.spendPages;

/** What a switched-on top-up cannot do without. */
const TOP_UP_REQUIRED = ['below', 'amount', 'monthly_max'] as const;

/**
 * The fields as typed, read into the server's body (an empty cap is none; a switched-off top-up
 * is none) and checked by its schema; a switched-on top-up's empty field says what is missing.
 */
const formSchema = z
  .object({
    spend_cap: z.string(),
    weekly_spend_cap: z.string(),
    daily_spend_cap: z.string(),
    top_up_on: z.boolean(),
    top_up: z.object({
      below: z.string(),
      amount: z.string(),
      monthly_max: z.string(),
      expires_after_days: z.string(),
      priority: z.string(),
      /** Kept as they stand: the console does not edit a top-up's agent types. */
      agent_types: z.array(z.string()).nullable(),
    }),
  })
  .superRefine(({ top_up_on, top_up }, ctx) => {
    if (!top_up_on) return;
    for (const name of TOP_UP_REQUIRED)
      if (top_up[name].trim() === '') ctx.addIssue({ code: 'custom', path: ['top_up', name], message: s.topUpMissing[name] });
  })
  .transform(
    ({ spend_cap, weekly_spend_cap, daily_spend_cap, top_up_on, top_up }): SpendControlsInput => ({
      spend_cap: spend_cap.trim() === '' ? null : spend_cap,
      weekly_spend_cap: weekly_spend_cap.trim() === '' ? null : weekly_spend_cap,
      daily_spend_cap: daily_spend_cap.trim() === '' ? null : daily_spend_cap,
      top_up: top_up_on
        ? {
            below: top_up.below,
            amount: top_up.amount,
            monthly_max: top_up.monthly_max,
            terms: termsOf(top_up),
          }
        : null,
    }),
  )
  .pipe(spendControlsInputSchema);
type Form = z.input<typeof formSchema>;
type Body = z.output<typeof formSchema>;

/** The typed terms of a top-up, numbers as typed (the server's schema refuses what is not one); null when none is given. */
function termsOf(top: { expires_after_days: string; priority: string; agent_types: string[] | null }) {
  const number = (text: string) => (text.trim() === '' ? undefined : Number(text));
  const terms = { expires_after_days: number(top.expires_after_days), priority: number(top.priority), agent_types: top.agent_types };
  return terms.expires_after_days === undefined && terms.priority === undefined && !terms.agent_types ? null : terms;
}

const formOf = (controls: SpendControls): Form => ({
  spend_cap: controls.spend_cap.cap ?? '',
  weekly_spend_cap: controls.weekly_spend_cap.cap ?? '',
  daily_spend_cap: controls.daily_spend_cap.cap ?? '',
  top_up_on: controls.top_up !== null,
  top_up: {
    below: controls.top_up?.below ?? '',
    amount: controls.top_up?.amount ?? '',
    monthly_max: controls.top_up?.monthly_max ?? '',
    expires_after_days: controls.top_up?.terms?.expires_after_days?.toString() ?? '',
    priority: controls.top_up?.terms?.priority ? String(controls.top_up.terms.priority) : '',
    agent_types: controls.top_up?.terms?.agent_types?.map((a) => a.code) ?? null,
  },
});

/** Edit a direct child's spend caps (month, ISO week, day; UTC) and automatic top-up (its parent's admins). */
export function SpendControlsDialog({ organizationName, controls }: { organizationName: string; controls: SpendControls }) {
  const [open, setOpen] = useState(false);
  const save = useSetSpendControls(controls.organization_id);
  const form = useForm<Form, unknown, Body>({ resolver: zodResolver(formSchema), defaultValues: formOf(controls) });
  const topUpOn = useWatch({ control: form.control, name: 'top_up_on' });
  const [monthCap, weekCap, dayCap] = useWatch({ control: form.control, name: ['spend_cap', 'weekly_spend_cap', 'daily_spend_cap'] });
  const { errors, isSubmitting } = form.formState;
  // The child's balance (the billing page reads it too): a line above it tops the child up as soon as the rule is saved.
  const billing = useQuery({ ...billingQueries.settings(controls.organization_id), enabled: open });
  const balance = billing.data?.billing_settings.credit_balance;
  // The body the person was told moves credits now; saving that same body again goes ahead.
  const [warned, setWarned] = useState<string | null>(null);
  const topUpNow = (body: Body) =>
    body.top_up !== null && balance !== undefined && toCents(balance) < toCents(String(body.top_up.below)) ? body.top_up : null;

  function onOpenChange(next: boolean) {
    setOpen(next);
    setWarned(null);
    if (next) form.reset(formOf(controls));
    else save.reset();
  }

  async function submit(body: Body) {
    const signature = JSON.stringify(body);
    if (topUpNow(body) && warned !== signature) {
      setWarned(signature);
      return;
    }
    try {
      await save.mutateAsync(body);
      toast.success(s.saved);
      setOpen(false);
    } catch {
      // The refusal is shown in the dialog.
    }
  }

  const field = (name: 'below' | 'amount' | 'monthly_max' | 'expires_after_days' | 'priority', label: string) => (
    <FormField
      id={`top-up-${name}`}
      label={label}
      inputMode={name === 'expires_after_days' || name === 'priority' ? 'numeric' : 'decimal'}
      autoComplete="off"
      error={errors.top_up?.[name]?.message ?? (name === 'expires_after_days' || name === 'priority' ? termsError(name) : undefined)}
      {...form.register(`top_up.${name}`)}
    />
  );
  // The server's schema checks the terms under `top_up.terms`; its message is shown under the field it is about.
  const termsError = (name: 'expires_after_days' | 'priority') =>
    (errors.top_up as { terms?: Record<string, { message?: string }> } | undefined)?.terms?.[name]?.message;
  const scoped = controls.top_up?.terms?.agent_types;

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
      submitLabel={isSubmitting ? s.saving : warned ? s.saveAndTopUp : s.save}
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
      <FormField
        id="weekly-spend-cap"
        label={s.weeklySpendCapLabel}
        inputMode="decimal"
        autoComplete="off"
        placeholder={s.noCap}
        error={errors.weekly_spend_cap?.message}
        {...form.register('weekly_spend_cap')}
      />
      <FormField
        id="daily-spend-cap"
        label={s.dailySpendCapLabel}
        inputMode="decimal"
        autoComplete="off"
        placeholder={s.noCap}
        error={errors.daily_spend_cap?.message}
        {...form.register('daily_spend_cap')}
      />
      <CapBelowChargedWarning controls={controls} typed={{ month: monthCap, week: weekCap, day: dayCap }} />
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
          {field('expires_after_days', s.topUpExpiryLabel)}
          {field('priority', s.topUpPriorityLabel)}
          {scoped && <p className="text-muted-foreground text-sm">{s.topUpAgentsNote(scoped.map((a) => a.name).join(', '))}</p>}
        </div>
      )}
      {warned && balance !== undefined && <TopUpNowWarning child={organizationName} balance={balance} body={JSON.parse(warned) as Body} />}
      {save.isError && <ErrorAlert title={s.saveFailed} message={save.error.message} />}
    </FormDialog>
  );
}

/** What saving does at once: the child is below the new line, so a top-up moves as the rule is saved. */
function TopUpNowWarning({ child, balance, body }: { child: string; balance: string; body: Body }) {
  if (!body.top_up) return null;
  return (
    <Alert role="status">
      <AlertTitle>{s.topUpNowTitle}</AlertTitle>
      <AlertDescription>
        {s.topUpNow(child, formatCredits(balance), formatCredits(String(body.top_up.below)), formatCredits(String(body.top_up.amount)))}
      </AlertDescription>
    </Alert>
  );
}
