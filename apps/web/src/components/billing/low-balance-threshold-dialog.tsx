import { lowBalanceThresholdSchema } from '@console/domain';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { FormField } from '@/components/form-field';
import { FormDialog, saveThenClose } from '@/components/form-dialog';
import { useSetLowBalanceThreshold } from '@/api/billing';
import { formatCredits } from '@/lib/credit-format';
import { MESSAGES } from '@/lib/wording';
import { ErrorAlert } from '@/components/error-alert';

const t = MESSAGES.thresholdPages;

/** Change threshold: the amount below which the organization's admins are e-mailed, 0 or more with two decimals. */
export function LowBalanceThresholdDialog({ organizationId, threshold }: { organizationId: string; threshold: string }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState(threshold);
  const [error, setError] = useState<string | null>(null);
  const save = useSetLowBalanceThreshold(organizationId);

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (next) {
      setText(threshold);
      setError(null);
      save.reset();
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = lowBalanceThresholdSchema.safeParse({ low_balance_threshold: text });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? MESSAGES.billing.invalidValue);
      return;
    }
    setError(null);
    await saveThenClose(
      async () => {
        const billing = await save.mutateAsync(parsed.data.low_balance_threshold);
        toast.success(t.saved, { description: t.body(formatCredits(billing.billing_settings.low_balance_threshold)) });
      },
      () => setOpen(false),
    );
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      triggerLabel={t.change}
      title={t.dialogTitle}
      description={t.dialogDescription}
      onSubmit={(event) => void submit(event)}
      cancelLabel={MESSAGES.agentPages.cancel}
      submitLabel={save.isPending ? MESSAGES.agentPages.saving : MESSAGES.agentPages.save}
      submitDisabled={save.isPending}
    >
      <FormField
        id="low-balance-threshold"
        label={t.label}
        type="number"
        inputMode="decimal"
        min={0}
        step={0.01}
        value={text}
        error={error ?? undefined}
        onChange={(event) => {
          setText(event.target.value);
          setError(null);
        }}
      />
      {save.isError && <ErrorAlert title={t.saveFailed} message={save.error.message} />}
    </FormDialog>
  );
}
