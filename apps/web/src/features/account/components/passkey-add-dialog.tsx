import { passkeyNameSchema, startTotpBodySchema } from '@console/domain';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { FormDialog } from '@/components/form-dialog';
import { FormField } from '@/components/form-field';
import { PasswordField } from '@/components/password-field';
import { useAddPasskey, usePasskeyRegistrationOptions } from '@/api/account';
import { ApiError } from '@/lib/api';
import { createPasskey } from '@/lib/passkey';
import { usePending } from '@/lib/use-pending';
import { MESSAGES } from '../wording';

const w = MESSAGES.security.passkeys;

/**
 * Adding a passkey: the password and a name, then the browser's own prompt makes the passkey,
 * and the server keeps it. A refusal (wrong password, the browser cancelled) stays in the dialog.
 * A first factor gives recovery codes, handed to `onCodes`.
 */
export function PasskeyAddDialog({ onCodes }: { onCodes(codes: string[]): void }) {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<{ password?: string; name?: string; form?: string }>({});
  const [pending, track] = usePending();
  const start = usePasskeyRegistrationOptions();
  const add = useAddPasskey();

  function changeOpen(next: boolean) {
    setOpen(next);
    setPassword('');
    setName('');
    setErrors({});
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsedPassword = startTotpBodySchema.safeParse({ current_password: password });
    const parsedName = passkeyNameSchema.safeParse(name);
    if (!parsedPassword.success || !parsedName.success) {
      return setErrors({
        password: parsedPassword.error?.issues[0]?.message,
        name: parsedName.error?.issues[0]?.message,
      });
    }
    setErrors({});
    await track(async () => {
      try {
        const options = await start.mutateAsync(parsedPassword.data);
        const response = await createPasskey(options);
        const added = await add.mutateAsync({ name: parsedName.data, response });
        changeOpen(false);
        toast.success(w.added);
        if (added.recovery_codes.length > 0) onCodes(added.recovery_codes);
      } catch (failure) {
        const message = failure instanceof Error ? failure.message : MESSAGES.generic.unexpected;
        if (failure instanceof ApiError && failure.fields?.current_password) setErrors({ password: failure.fields.current_password });
        else setErrors({ form: message });
      }
    });
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={changeOpen}
      triggerLabel={w.add}
      title={w.addTitle}
      description={w.addPassword}
      onSubmit={(event) => void submit(event)}
      cancelLabel={MESSAGES.security.cancel}
      submitLabel={w.continue}
      submitDisabled={pending}
    >
      <PasswordField
        id="passkey-password"
        label={w.passwordLabel}
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={errors.password}
      />
      <FormField id="passkey-name" label={w.nameLabel} value={name} onChange={(event) => setName(event.target.value)} error={errors.name} />
      <p className="-mt-2 text-sm text-muted-foreground">{w.nameHint}</p>
      {errors.form && (
        <p role="alert" className="text-sm text-destructive">
          {errors.form}
        </p>
      )}
    </FormDialog>
  );
}
