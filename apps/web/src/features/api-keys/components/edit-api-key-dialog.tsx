import { zodResolver } from '@hookform/resolvers/zod';
import { capAmountSchema, createApiKeySchema, type ApiKey, type UpdateApiKeyInput } from '@console/domain';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { FormDialog, saveThenClose } from '@/components/form-dialog';
import { FormField } from '@/components/form-field';
import { LabelledControl } from '@/components/labelled-control';
import { ErrorAlert } from '@/components/error-alert';
import { Input } from '@/components/ui/input';
import { useUpdateApiKey } from '@/api/api-keys';
import { dateInputOf, endOfDay, lifecycleFields, rateLimitOf } from '../key-form';
import { MESSAGES } from '../wording';

const k = MESSAGES.apiKeyPages;

/** A cap as typed: '' for none (null), otherwise the exact amount ("200.00"); undefined when it is not one. */
function capOf(text: string): string | null | undefined {
  if (text.trim() === '') return null;
  const parsed = capAmountSchema.safeParse(text);
  return parsed.success ? parsed.data : undefined;
}

const editFormSchema = z.object({
  name: createApiKeySchema.shape.name,
  ...lifecycleFields,
  monthly_cap: z.string().refine((text) => capOf(text) !== undefined, MESSAGES.spend.capInvalid),
  weekly_cap: z.string().refine((text) => capOf(text) !== undefined, MESSAGES.spend.capInvalid),
  daily_cap: z.string().refine((text) => capOf(text) !== undefined, MESSAGES.spend.capInvalid),
});
/** The key's caps, one per window (UTC): the month's, an ISO week's, a day's. */
const CAP_FIELDS = ['monthly_cap', 'weekly_cap', 'daily_cap'] as const;
type EditForm = z.input<typeof editFormSchema>;

const formOf = (key: ApiKey): EditForm => ({
  name: key.name,
  expires_on: dateInputOf(key.expires_at),
  rate_limit: key.rate_limit_per_minute === null ? '' : String(key.rate_limit_per_minute),
  monthly_cap: key.monthly_cap.cap ?? '',
  weekly_cap: key.weekly_cap.cap ?? '',
  daily_cap: key.daily_cap.cap ?? '',
});

/** A key that may be edited, its organization's, and the highest rate limit it may be given (null: no ceiling). */
export interface KeyEditProps {
  organizationId: string;
  apiKey: ApiKey;
  rateLimitCeiling: number | null;
}

/**
 * Edit a live key: its name, its end date (empty: never), its own rate limit (empty: the
 * default) and its caps by month, week and day (empty: none). Only what changed is sent, so an end date left as it was keeps its exact time.
 */
export function EditApiKeyDialog({ organizationId, apiKey, rateLimitCeiling }: KeyEditProps) {
  const [open, setOpen] = useState(false);
  const update = useUpdateApiKey(organizationId);
  const initial = formOf(apiKey);
  const form = useForm<EditForm, unknown, EditForm>({ resolver: zodResolver(editFormSchema), defaultValues: initial });
  const { errors, isSubmitting } = form.formState;

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (next) form.reset(formOf(apiKey));
    else update.reset();
  }

  async function submit(values: EditForm) {
    const body: UpdateApiKeyInput = {};
    if (values.name.trim() !== apiKey.name) body.name = values.name;
    if (values.expires_on !== initial.expires_on) body.expires_at = values.expires_on ? endOfDay(values.expires_on) : null;
    if (values.rate_limit.trim() !== initial.rate_limit) body.rate_limit_per_minute = rateLimitOf(values.rate_limit) ?? null;
    for (const field of CAP_FIELDS) {
      const cap = capOf(values[field]);
      if (cap !== undefined && cap !== capOf(initial[field])) body[field] = cap;
    }
    await saveThenClose(
      async () => {
        if (Object.keys(body).length > 0) await update.mutateAsync({ keyId: apiKey.id, body });
        toast.success(k.saved(values.name.trim()));
      },
      () => setOpen(false),
    );
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      triggerLabel={k.edit}
      triggerAriaLabel={`${k.edit} ${apiKey.name}`}
      title={k.editTitle(apiKey.name)}
      description={k.editDescription}
      onSubmit={(event) => void form.handleSubmit(submit)(event)}
      cancelLabel={MESSAGES.agentPages.cancel}
      submitLabel={isSubmitting ? k.saving : k.save}
      submitDisabled={isSubmitting}
    >
      <FormField
        id={`api-key-name-${apiKey.id}`}
        label={k.name}
        autoComplete="off"
        error={errors.name?.message}
        {...form.register('name')}
      />
      <LabelledControl id={`api-key-expires-${apiKey.id}`} label={k.expiresOn} hint={k.expiresHint} error={errors.expires_on?.message}>
        {(aria) => <Input id={`api-key-expires-${apiKey.id}`} type="date" {...aria} {...form.register('expires_on')} />}
      </LabelledControl>
      <LabelledControl
        id={`api-key-rate-limit-${apiKey.id}`}
        label={k.rateLimit}
        hint={k.rateLimitHint(rateLimitCeiling)}
        error={errors.rate_limit?.message}
      >
        {(aria) => (
          <Input id={`api-key-rate-limit-${apiKey.id}`} inputMode="numeric" autoComplete="off" {...aria} {...form.register('rate_limit')} />
        )}
      </LabelledControl>
      <LabelledControl
        id={`api-key-cap-${apiKey.id}`}
        label={MESSAGES.spendPages.keyCapLabel}
        hint={MESSAGES.spendPages.keyCapHint}
        error={errors.monthly_cap?.message}
      >
        {(aria) => (
          <Input id={`api-key-cap-${apiKey.id}`} inputMode="decimal" autoComplete="off" {...aria} {...form.register('monthly_cap')} />
        )}
      </LabelledControl>
      <LabelledControl
        id={`api-key-weekly-cap-${apiKey.id}`}
        label={MESSAGES.spendPages.keyWeeklyCapLabel}
        hint={MESSAGES.spendPages.keyWindowCapHint}
        error={errors.weekly_cap?.message}
      >
        {(aria) => (
          <Input id={`api-key-weekly-cap-${apiKey.id}`} inputMode="decimal" autoComplete="off" {...aria} {...form.register('weekly_cap')} />
        )}
      </LabelledControl>
      <LabelledControl
        id={`api-key-daily-cap-${apiKey.id}`}
        label={MESSAGES.spendPages.keyDailyCapLabel}
        hint={MESSAGES.spendPages.keyWindowCapHint}
        error={errors.daily_cap?.message}
      >
        {(aria) => (
          <Input id={`api-key-daily-cap-${apiKey.id}`} inputMode="decimal" autoComplete="off" {...aria} {...form.register('daily_cap')} />
        )}
      </LabelledControl>
      {update.isError && <ErrorAlert title={k.editFailed} message={update.error.message} />}
    </FormDialog>
  );
}
