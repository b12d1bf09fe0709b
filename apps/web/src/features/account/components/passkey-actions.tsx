import { factorCodeBodySchema, passkeyNameSchema, type Passkey } from '@console/domain';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { CodeField } from '@/components/code-field';
import { FormDialog } from '@/components/form-dialog';
import { FormField } from '@/components/form-field';
import { usePasskeyCheckOptions, useRemovePasskey, useRenamePasskey } from '@/api/account';
import { signWithPasskey } from '@/lib/passkey';
import { MESSAGES } from '../wording';

const w = MESSAGES.security.passkeys;
const failureText = (failure: unknown) => (failure instanceof Error ? failure.message : MESSAGES.generic.unexpected);

/** Renames a passkey: a dialog with its name, kept open with the refusal under the field. */
export function RenamePasskeyDialog({ passkey }: { passkey: Passkey }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(passkey.name);
  const [error, setError] = useState<string | undefined>();
  const rename = useRenamePasskey();

  function changeOpen(next: boolean) {
    setOpen(next);
    setName(passkey.name);
    setError(undefined);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = passkeyNameSchema.safeParse(name);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    try {
      await rename.mutateAsync({ passkeyId: passkey.id, name: parsed.data });
      changeOpen(false);
      toast.success(w.renamed);
    } catch (failure) {
      setError(failureText(failure));
    }
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={changeOpen}
      triggerLabel={w.rename}
      triggerAriaLabel={w.renameAria(passkey.name)}
      title={w.renameTitle}
      description={passkey.name}
      onSubmit={(event) => void submit(event)}
      cancelLabel={MESSAGES.security.cancel}
      submitLabel={w.save}
      submitDisabled={rename.isPending}
    >
      <FormField
        id={`passkey-rename-${passkey.id}`}
        label={w.nameLabel}
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={error}
      />
    </FormDialog>
  );
}

/**
 * Removes a passkey, proved by a current code (app or recovery code) typed in the dialog, or by
 * one of the person's passkeys through the browser's prompt.
 */
export function RemovePasskeyDialog({ passkey }: { passkey: Passkey }) {
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const remove = useRemovePasskey();
  const check = usePasskeyCheckOptions();
  const pending = remove.isPending || check.isPending;

  function changeOpen(next: boolean) {
    setOpen(next);
    setCode('');
    setError(undefined);
  }

  async function removeWith(proof: () => Promise<Parameters<typeof remove.mutateAsync>[0]['proof']>) {
    try {
      await remove.mutateAsync({ passkeyId: passkey.id, proof: await proof() });
      changeOpen(false);
      toast.success(w.removed);
    } catch (failure) {
      setError(failureText(failure));
      setCode('');
    }
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = factorCodeBodySchema.safeParse({ code });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    void removeWith(async () => parsed.data);
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={changeOpen}
      triggerLabel={w.remove}
      triggerAriaLabel={w.removeAria(passkey.name)}
      title={w.removeTitle}
      description={w.removeWarning(passkey.name)}
      onSubmit={submit}
      cancelLabel={MESSAGES.security.cancel}
      submitLabel={w.remove}
      submitDisabled={pending}
    >
      <CodeField
        id={`passkey-remove-code-${passkey.id}`}
        kind="any"
        label={w.codeLabel}
        value={code}
        onChange={(event) => setCode(event.target.value)}
        error={error}
      />
      <Button
        type="button"
        variant="link"
        className="h-auto justify-self-start p-0"
        disabled={pending}
        onClick={() => void removeWith(async () => ({ response: await signWithPasskey(await check.mutateAsync()) }))}
      >
        {w.usePasskey}
      </Button>
    </FormDialog>
  );
}
