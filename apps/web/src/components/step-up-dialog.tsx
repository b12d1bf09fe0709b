import {
  accountEndpoints,
  authEndpoints,
  identityEndpoints,
  isReturnPath,
  isSsoStepUpError,
  type StepUpBody,
  type StepUpMethod,
} from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { type Location, useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { stepUpKeys } from '@/api/query-keys';
import { CodeField } from '@/components/code-field';
import { ErrorAlert } from '@/components/error-alert';
import { PasswordField } from '@/components/password-field';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { ApiError, call } from '@/lib/api';
import { PasskeyError, signWithPasskey } from '@/lib/passkey';
import { browser } from '@/lib/reload';
import { setStepUpAsker } from '@/lib/step-up';
import { MESSAGES } from '@/lib/wording';

const t = MESSAGES.stepUp;

type Mode = StepUpMethod;

/** The other ways a person with a factor may confirm, as the links under the form name them. */
const SWITCH_LABEL: Record<Exclude<Mode, 'password'>, string> = {
  totp: t.useApp,
  passkey: t.usePasskeyInstead,
  recovery_code: t.useRecoveryCode,
  sso: t.useProviderInstead,
};

/** The step-up's outcome parameters the provider's round trip comes back with. */
const OUTCOME_PARAMS = ['step_up', 'step_up_error'] as const;

/** The page to come back to after the provider: this one, without an earlier round trip's outcome. */
function returnPathOf(location: Location): string {
  const params = new URLSearchParams(location.search);
  for (const name of OUTCOME_PARAMS) params.delete(name);
  const search = params.toString();
  const path = `${location.pathname}${search ? `?${search}` : ''}${location.hash}`;
  return isReturnPath(path) ? path : '/';
}

/**
 * Back from confirming at the identity provider (`?step_up=ok` or `?step_up_error=<reason>`):
 * says how it went, then takes the parameters out of the address. The refused request did not
 * survive the round trip, so the person is told to do the action again.
 */
function useProviderOutcome() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const ok = params.get('step_up') === 'ok';
    const error = params.get('step_up_error');
    if (!ok && error === null) return;
    // One id: the same outcome is said once, however often this runs for it.
    if (ok) toast.success(t.providerConfirmed, { id: 'step-up-outcome', description: MESSAGES.identity.stepUpConfirmed });
    else if (isSsoStepUpError(error)) toast.error(t.failed, { id: 'step-up-outcome', description: MESSAGES.identity.stepUpErrors[error] });
    navigate(returnPathOf(location), { replace: true });
  }, [location, navigate]);
}

/**
 * The one dialog that asks the signed-in person to confirm it is them when the server wants a
 * step-up: a code from their authenticator app, one of their passkeys, or a recovery code, or
 * their password when they have no factor. Confirmed, the refused request is sent again;
 * cancelled, it fails. A session begun at the organization's identity provider confirms there:
 * the browser goes to the provider and comes back to this page, where the action is done again.
 */
export function StepUpDialog() {
  const [open, setOpen] = useState(false);
  const waiting = useRef<{ resolve(): void; reject(error: Error): void } | null>(null);
  useProviderOutcome();

  useEffect(
    () =>
      setStepUpAsker(
        () =>
          new Promise<void>((resolve, reject) => {
            waiting.current = { resolve, reject };
            setOpen(true);
          }),
      ),
    [],
  );

  const finish = (confirmed: boolean) => {
    const pending = waiting.current;
    waiting.current = null;
    setOpen(false);
    if (confirmed) pending?.resolve();
    else pending?.reject(new Error(MESSAGES.auth.stepUpCancelled));
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !next && finish(false)}>
      <DialogContent>{open && <StepUpForm onConfirmed={() => finish(true)} onCancel={() => finish(false)} />}</DialogContent>
    </Dialog>
  );
}

function StepUpForm({ onConfirmed, onCancel }: { onConfirmed(): void; onCancel(): void }) {
  const status = useQuery({ queryKey: stepUpKeys.status, queryFn: () => call(authEndpoints.stepUpStatus), staleTime: 0, gcTime: 0 });
  const location = useLocation();
  const [chosen, setChosen] = useState<Mode | null>(null);
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const methods = status.data?.methods ?? [];
  // The first the server lists: the provider (for a session begun there), the app before a passkey before a recovery code; the password alone for a person without a factor.
  const mode: Mode | null = chosen ?? methods[0] ?? null;
  const others = methods.filter((m): m is Exclude<Mode, 'password'> => m !== mode && m !== 'password');

  const switchTo = (next: Mode) => {
    setChosen(next);
    setValue('');
    setFieldError(undefined);
    setFailure(null);
  };

  /** The answer for the chosen way: the field's value, or the browser's passkey prompt on the server's re-check options. */
  async function answer(): Promise<StepUpBody> {
    if (mode === 'password') return { method: 'password', password: value };
    if (mode === 'passkey') return { method: 'passkey', response: await signWithPasskey(await call(accountEndpoints.passkeyCheckOptions)) };
    return { method: mode as 'totp' | 'recovery_code', code: value };
  }

  /** To the identity provider, to come back to this page; the dialog stays busy while the browser leaves. */
  async function confirmAtProvider() {
    setBusy(true);
    setFailure(null);
    try {
      const { redirect_url } = await call(identityEndpoints.stepUp, { body: { return_to: returnPathOf(location) } });
      browser.assign(redirect_url);
    } catch (error) {
      setFailure(error instanceof ApiError ? error.message : MESSAGES.generic.unexpected);
      setBusy(false);
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!mode || busy) return;
    if (mode === 'sso') return confirmAtProvider();
    if (mode !== 'passkey' && value.trim() === '') {
      setFieldError(mode === 'password' ? MESSAGES.auth.passwordRequired : MESSAGES.auth.codeRequired);
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      await call(authEndpoints.stepUp, { body: await answer() });
      onConfirmed();
    } catch (error) {
      // An API refusal, or the browser's passkey prompt refused or cancelled (its message says which).
      const message = error instanceof ApiError || error instanceof PasskeyError ? error.message : MESSAGES.generic.unexpected;
      const field = error instanceof ApiError ? (error.fields.code ?? error.fields.password) : undefined;
      setFieldError(field);
      if (!field) setFailure(message);
    } finally {
      setBusy(false);
    }
  }

  const description =
    mode === 'password'
      ? t.passwordDescription
      : mode === 'recovery_code'
        ? t.recoveryDescription
        : mode === 'passkey'
          ? t.passkeyDescription
          : mode === 'sso'
            ? t.providerDescription
            : t.factorDescription;

  const submitLabel =
    mode === 'sso'
      ? busy
        ? t.goingToProvider
        : t.confirmWithProvider
      : busy
        ? t.submitting
        : mode === 'passkey'
          ? t.usePasskey
          : t.submit;

  return (
    <form noValidate className="grid gap-4" onSubmit={submit}>
      <DialogHeader>
        <DialogTitle>{t.title}</DialogTitle>
        <DialogDescription>{status.isPending ? t.loading : description}</DialogDescription>
      </DialogHeader>
      {status.isError && <ErrorAlert title={t.failed} message={t.loadFailed} />}
      {mode === 'password' && (
        <PasswordField
          id="step-up-password"
          label={t.passwordLabel}
          autoComplete="current-password"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          error={fieldError}
          autoFocus
        />
      )}
      {(mode === 'totp' || mode === 'recovery_code') && (
        <CodeField
          key={mode}
          id="step-up-code"
          kind={mode === 'totp' ? 'totp' : 'any'}
          label={mode === 'totp' ? t.codeLabel : t.recoveryLabel}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          error={fieldError}
          autoFocus
        />
      )}
      {others.map((other) => (
        <Button key={other} type="button" variant="link" className="justify-self-start px-0" onClick={() => switchTo(other)}>
          {SWITCH_LABEL[other]}
        </Button>
      ))}
      {failure && <ErrorAlert title={t.failed} message={failure} />}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          {t.cancel}
        </Button>
        <Button type="submit" disabled={!mode || busy}>
          {submitLabel}
        </Button>
      </DialogFooter>
    </form>
  );
}
