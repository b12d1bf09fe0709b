import { factorCodeSchema, MESSAGES as DOMAIN_MESSAGES, totpCodeSchema, type MfaChallenge, type SecondFactorBody } from '@console/domain';
import { AlertCircle, ArrowLeft, KeyRound } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CodeField } from '@/components/code-field';
import { passkeyOptions } from '@/api/auth';
import { ApiError } from '@/lib/api';
import { signWithPasskey } from '@/lib/passkey';
import { MESSAGES } from '../wording';

const { auth } = MESSAGES;

/** A challenge answered too late: the server says so, or the clock has passed its end. */
function isExpired(error: unknown, challenge: MfaChallenge): boolean {
  if (error instanceof ApiError && (error.message === DOMAIN_MESSAGES.auth.challengeExpired || /expired/i.test(error.code))) return true;
  return Date.now() / 1000 > challenge.expires_at;
}

type CodeMethod = 'totp' | 'recovery_code';

/**
 * The sign-in's second step, after a right password for a person with a second factor: a code
 * from the authenticator app, a recovery code, or one of the person's passkeys (when the
 * challenge offers it). `onExpired` returns to the password step.
 */
export function SecondFactorStep({
  challenge,
  onAnswer,
  onBack,
  onExpired,
}: {
  challenge: MfaChallenge;
  /** Answers the challenge and goes on once the session has started; throws when the server refuses. */
  onAnswer(body: SecondFactorBody): Promise<void>;
  onBack(): void;
  onExpired(): void;
}) {
  const [method, setMethod] = useState<CodeMethod>(challenge.methods.includes('totp') ? 'totp' : 'recovery_code');
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  // The step is new content: the focus moves to its field, so keyboard and screen reader users start there.
  useEffect(() => input.current?.focus(), [method]);

  function switchMethod() {
    setMethod(method === 'totp' ? 'recovery_code' : 'totp');
    setCode('');
    setFieldError(undefined);
    setFailure(null);
  }

  /**
   * An answer the server refused: an expired challenge returns to the password step, any other
   * refusal is shown; answers whether the step stays (so the field can be cleared).
   */
  function refused(error: unknown): boolean {
    setSubmitting(false);
    if (isExpired(error, challenge)) {
      onExpired();
      return false;
    }
    setFailure(error instanceof Error ? error.message : MESSAGES.generic.unexpected);
    return true;
  }

  /** Answers with a passkey: options for this challenge, the browser's prompt, then the answer. */
  async function answerWithPasskey() {
    setFailure(null);
    setSubmitting(true);
    try {
      const response = await signWithPasskey(await passkeyOptions(challenge.challenge_token));
      await onAnswer({ challenge_token: challenge.challenge_token, method: 'passkey', response });
    } catch (error) {
      refused(error);
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = (method === 'totp' ? totpCodeSchema : factorCodeSchema).safeParse(code);
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message);
      input.current?.focus();
      return;
    }
    setFieldError(undefined);
    setSubmitting(true);
    try {
      await onAnswer({ challenge_token: challenge.challenge_token, method, code: parsed.data });
    } catch (error) {
      if (!refused(error)) return;
      setCode('');
      input.current?.focus();
    }
  }

  const totp = method === 'totp';
  const hasOther = challenge.methods.includes(totp ? 'recovery_code' : 'totp');
  return (
    <div className="space-y-4">
      <div className="space-y-1">
        <h2 className="font-medium">{auth.secondStepTitle}</h2>
        <p className="text-sm text-muted-foreground">{totp ? auth.totpPrompt : auth.recoveryPrompt}</p>
      </div>
      {failure && (
        <Alert variant="destructive">
          <AlertCircle aria-hidden />
          <AlertTitle>{auth.secondStepFailed}</AlertTitle>
          <AlertDescription>{failure}</AlertDescription>
        </Alert>
      )}
      <form noValidate className="space-y-4" onSubmit={(event) => void submit(event)}>
        <CodeField
          key={method}
          ref={input}
          id="second-factor-code"
          kind={totp ? 'totp' : 'any'}
          label={totp ? auth.totpLabel : auth.recoveryLabel}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          error={fieldError}
          required
        />
        <Button type="submit" className="w-full" disabled={submitting}>
          {submitting ? auth.verifying : auth.verify}
        </Button>
      </form>
      {challenge.methods.includes('passkey') && (
        <Button type="button" variant="outline" className="w-full" disabled={submitting} onClick={() => void answerWithPasskey()}>
          <KeyRound aria-hidden />
          {auth.usePasskey}
        </Button>
      )}
      <div className="flex flex-col items-start gap-2">
        {hasOther && (
          <Button type="button" variant="link" className="h-auto p-0" onClick={switchMethod}>
            {totp ? auth.useRecoveryCode : auth.useTotp}
          </Button>
        )}
        <Button type="button" variant="link" className="h-auto p-0 text-muted-foreground" onClick={onBack}>
          <ArrowLeft aria-hidden />
          {auth.backToPassword}
        </Button>
      </div>
    </div>
  );
}
