import { factorCodeBodySchema, type FactorCodeBody } from '@console/domain';
import { useState, type FormEvent } from 'react';
import { CodeField } from '@/components/code-field';
import { FormDialog } from '@/components/form-dialog';
import { usePending } from '@/lib/use-pending';
import { MESSAGES } from '../wording';

/**
 * An action on the person's factors that asks a current code first (from the app, or a
 * recovery code): the button, then a dialog with the warning, the code and the action.
 * The dialog stays open on a refusal, with the server's message under the code.
 */
export function FactorCodeDialog({
  id,
  triggerLabel,
  title,
  warning,
  codeLabel,
  submitLabel,
  onSubmit,
}: {
  id: string;
  triggerLabel: string;
  title: string;
  warning: string;
  codeLabel: string;
  submitLabel: string;
  /** Does the action; throws the server's refusal. */
  onSubmit(body: FactorCodeBody): Promise<void>;
}) {
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [pending, track] = usePending();

  function changeOpen(next: boolean) {
    setOpen(next);
    setCode('');
    setError(undefined);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = factorCodeBodySchema.safeParse({ code });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    await track(async () => {
      try {
        await onSubmit(parsed.data);
        changeOpen(false);
      } catch (failure) {
        setError(failure instanceof Error ? failure.message : MESSAGES.generic.unexpected);
        setCode('');
      }
    });
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={changeOpen}
      triggerLabel={triggerLabel}
      title={title}
      description={warning}
      onSubmit={(event) => void submit(event)}
      cancelLabel={MESSAGES.security.cancel}
      submitLabel={submitLabel}
      submitDisabled={pending}
    >
      <CodeField id={id} kind="any" label={codeLabel} value={code} onChange={(event) => setCode(event.target.value)} error={error} />
    </FormDialog>
  );
}
