import { confirmTotpBodySchema, startTotpBodySchema, type TotpEnrollment } from '@console/domain';
import { Copy } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { CodeField } from '@/components/code-field';
import { PasswordField } from '@/components/password-field';
import { useConfirmTotp, useStartTotp } from '@/api/account';
import { ApiError } from '@/lib/api';
import { MESSAGES } from '../wording';
import { copyText } from './copy-text';

const s = MESSAGES.security.setup;

/** The QR code the server drew, as an image: its markup is never put into the page itself. */
function qrSource(svg: string): string {
  const bytes = new TextEncoder().encode(svg);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `data:image/svg+xml;base64,${btoa(binary)}`;
}

/** The secret in groups of four, easier to read and type; the copy is the secret itself. */
const groupSecret = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : MESSAGES.generic.unexpected);

/** A step's buttons: its own action, which waits while the server answers, and Cancel. */
function StepButtons({ submitLabel, pending, onCancel }: { submitLabel: string; pending: boolean; onCancel(): void }) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button type="submit" disabled={pending}>
        {submitLabel}
      </Button>
      <Button type="button" variant="outline" onClick={onCancel}>
        {MESSAGES.security.cancel}
      </Button>
    </div>
  );
}

/** Step one: the password again, then the secret to scan or type. */
function PasswordStep({ onStarted, onCancel }: { onStarted(enrollment: TotpEnrollment): void; onCancel(): void }) {
  const start = useStartTotp();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = startTotpBodySchema.safeParse({ current_password: password });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    try {
      onStarted(await start.mutateAsync(parsed.data));
    } catch (failure) {
      setError(failure instanceof ApiError ? (failure.fields.current_password ?? failure.message) : messageOf(failure));
      input.current?.focus();
    }
  }

  return (
    <form noValidate className="space-y-4" onSubmit={(event) => void submit(event)}>
      <p className="text-sm text-muted-foreground">{s.passwordStep}</p>
      <PasswordField
        ref={input}
        id="totp-current-password"
        label={s.passwordLabel}
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={error}
      />
      <StepButtons submitLabel={s.continue} pending={start.isPending} onCancel={onCancel} />
    </form>
  );
}

/** Step two: the QR code and the key, then a first code from the app confirms it; answers the recovery codes. */
function ScanStep({
  enrollment,
  onConfirmed,
  onRestart,
  onCancel,
}: {
  enrollment: TotpEnrollment;
  onConfirmed(codes: string[]): void;
  onRestart(message: string): void;
  onCancel(): void;
}) {
  const confirm = useConfirmTotp();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const heading = useRef<HTMLParagraphElement>(null);
  const input = useRef<HTMLInputElement>(null);
  // The new step's instructions take the focus, so a screen reader reads them first.
  useEffect(() => heading.current?.focus(), []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = confirmTotpBodySchema.safeParse({ code });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return input.current?.focus();
    }
    setError(undefined);
    try {
      onConfirmed((await confirm.mutateAsync(parsed.data)).recovery_codes);
    } catch (failure) {
      // 409: the setup was forgotten (too long) or never started; it starts again from the password.
      if (failure instanceof ApiError && failure.status === 409) return onRestart(failure.message);
      setError(messageOf(failure));
      setCode('');
      input.current?.focus();
    }
  }

  return (
    <form noValidate className="space-y-4" onSubmit={(event) => void submit(event)}>
      <p ref={heading} tabIndex={-1} className="text-sm outline-none">
        {s.scanStep}
      </p>
      <img src={qrSource(enrollment.qr_svg)} alt={s.qrAlt} className="size-48 rounded-md border bg-white p-2" />
      <div className="space-y-1">
        <p className="text-sm font-medium" id="totp-secret-label">
          {s.secretLabel}
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <code aria-labelledby="totp-secret-label" className="rounded bg-muted px-2 py-1 font-mono text-sm break-all">
            {groupSecret(enrollment.secret)}
          </code>
          <Button type="button" variant="outline" size="sm" onClick={() => void copyText(enrollment.secret)}>
            <Copy aria-hidden />
            {s.copySecret}
          </Button>
        </div>
      </div>
      <CodeField
        ref={input}
        id="totp-confirm-code"
        kind="totp"
        label={s.codeLabel}
        value={code}
        onChange={(event) => setCode(event.target.value)}
        error={error}
      />
      <StepButtons submitLabel={s.confirm} pending={confirm.isPending} onCancel={onCancel} />
    </form>
  );
}

/** Setting up an authenticator app: the password, the secret and a first code; then the recovery codes go to `onEnrolled`. */
export function TotpSetup({ onEnrolled, onCancel }: { onEnrolled(codes: string[]): void; onCancel(): void }) {
  const [enrollment, setEnrollment] = useState<TotpEnrollment | null>(null);
  const [restartNotice, setRestartNotice] = useState<string | null>(null);
  return (
    <div className="space-y-4 rounded-md border p-4">
      <h3 className="font-medium">{s.title}</h3>
      {restartNotice && !enrollment && (
        <p role="alert" className="text-sm text-destructive">
          {restartNotice}
        </p>
      )}
      {enrollment ? (
        <ScanStep
          enrollment={enrollment}
          onConfirmed={onEnrolled}
          onCancel={onCancel}
          onRestart={(message) => {
            setEnrollment(null);
            setRestartNotice(message);
          }}
        />
      ) : (
        <PasswordStep onStarted={setEnrollment} onCancel={onCancel} />
      )}
    </div>
  );
}
