import { zodResolver } from '@hookform/resolvers/zod';
import {
  ALERT_LINE_KINDS,
  ALERT_LINE_WINDOWS,
  alertLineInputSchema,
  type AlertLine,
  type AlertLineBody,
  type AlertLineInput,
} from '@console/domain';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { useSaveAlertLine } from '@/api/billing';
import { ErrorAlert } from '@/components/error-alert';
import { FormDialog, saveThenClose } from '@/components/form-dialog';
import { FormField } from '@/components/form-field';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { MESSAGES } from '@/lib/wording';

const a = MESSAGES.alertLinePages;

/** The fields as typed, read into the server's body (a window only for a cap line) and checked by its schema. */
const formSchema = z
  .object({ kind: z.enum(ALERT_LINE_KINDS), bound: z.string(), window: z.enum(ALERT_LINE_WINDOWS) })
  .transform(({ kind, bound, window }): AlertLineInput => (kind === 'cap_percent' ? { kind, bound, window } : { kind, bound }))
  .pipe(alertLineInputSchema);
type Form = z.input<typeof formSchema>;

/** A number the server wrote ("80.00") as one types it ("80"). */
const typed = (bound: string) => bound.replace(/\.00$/, '');

const formOf = (line?: AlertLine): Form => ({
  kind: line?.kind ?? 'balance',
  bound: line ? typed(line.bound) : '',
  window: line?.window ?? 'month',
});

/**
 * Add an alert line, or edit one (`line`): what it watches (fixed once made), its bound, and
 * for a percent of the spend cap the cap's window. The organization's own admins only.
 */
export function AlertLineDialog({ organizationId, line }: { organizationId: string; line?: AlertLine }) {
  const [open, setOpen] = useState(false);
  const save = useSaveAlertLine(organizationId, line?.id);
  const form = useForm<Form, unknown, AlertLineBody>({ resolver: zodResolver(formSchema), defaultValues: formOf(line) });
  const kind = useWatch({ control: form.control, name: 'kind' });
  const { errors, isSubmitting } = form.formState;

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (next) form.reset(formOf(line));
    else save.reset();
  }

  async function submit(body: AlertLineBody) {
    await saveThenClose(
      async () => {
        await save.mutateAsync(body);
        toast.success(a.saved);
      },
      () => setOpen(false),
    );
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      triggerLabel={line ? a.edit : a.add}
      triggerAriaLabel={line ? a.editAria(line.description) : undefined}
      title={line ? a.editTitle : a.addTitle}
      description={a.formDescription}
      onSubmit={(event) => void form.handleSubmit(submit)(event)}
      cancelLabel={MESSAGES.agentPages.cancel}
      submitLabel={isSubmitting ? a.saving : a.save}
      submitDisabled={isSubmitting}
    >
      <div className="grid gap-2">
        <Label htmlFor="alert-line-kind">{a.kindLabel}</Label>
        <NativeSelect id="alert-line-kind" disabled={!!line} {...form.register('kind')}>
          {ALERT_LINE_KINDS.map((value) => (
            <option key={value} value={value}>
              {a.kinds[value]}
            </option>
          ))}
        </NativeSelect>
      </div>
      <FormField
        id="alert-line-bound"
        label={a.boundLabel[kind]}
        inputMode="decimal"
        autoComplete="off"
        error={errors.bound?.message}
        {...form.register('bound')}
      />
      {kind === 'cap_percent' && (
        <div className="grid gap-2">
          <Label htmlFor="alert-line-window">{a.windowLabel}</Label>
          <NativeSelect id="alert-line-window" {...form.register('window')}>
            {ALERT_LINE_WINDOWS.map((value) => (
              <option key={value} value={value}>
                {a.windows[value]}
              </option>
            ))}
          </NativeSelect>
        </div>
      )}
      {save.isError && <ErrorAlert title={a.saveFailed} message={save.error.message} />}
    </FormDialog>
  );
}
