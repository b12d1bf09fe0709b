import { zodResolver } from '@hookform/resolvers/zod';
import { registrationFormSchema, roleLabel, TIMING, type AcceptResult, type Membership } from '@console/domain';
import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Loader2 } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { CenteredLayout } from '@/components/centered-layout';
import { FormField } from '@/components/form-field';
import { PasswordField } from '@/components/password-field';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { invalidate } from '@/api/invalidation';
import { acceptInvitation, useRegisterInvitation } from '@/api/invitations';
import { ApiError, refreshSession } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { PATHS } from '@/lib/paths';
import { forgetInvitation, rememberInvitation } from '@/lib/pending-invitation';
import { MESSAGES } from '../wording';
import { fieldOf } from '@/lib/form';
import { ErrorAlert } from '@/components/error-alert';

const t = MESSAGES.teamPages;
const m = MESSAGES.invitations;

type RegistrationForm = z.infer<typeof registrationFormSchema>;

type State =
  | { kind: 'processing' }
  | { kind: 'registration'; email: string; organizationName: string }
  | { kind: 'success'; organizationName: string }
  | { kind: 'requires_login'; email: string }
  | { kind: 'confirm'; from: Membership; to: Membership; joining: boolean }
  | { kind: 'declined'; organizationName: string }
  | { kind: 'error'; message: string; code: string; status: number | null };

function errorState(error: unknown): State {
  if (error instanceof ApiError) {
    return { kind: 'error', message: error.message, code: error.code, status: error.status };
  }
  const message = error instanceof Error ? error.message : MESSAGES.generic.unknown;
  return { kind: 'error', message, code: 'unknown', status: null };
}

/**
 * /invitation and /auth/accept-invitation: reads `token` and registers, sends to sign-in,
 * or asks a signed-in invitee to confirm leaving their organization before joining.
 */
export default function InvitationPage() {
  const [searchParams] = useSearchParams();
  const [token] = useState(() => searchParams.get('token'));
  const { status } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [state, setState] = useState<State>(() =>
    token ? { kind: 'processing' } : { kind: 'error', message: MESSAGES.invitations.invalidLink, code: 'invitation_invalid', status: null },
  );
  const started = useRef(false);

  const settle = useCallback(
    async (result: AcceptResult) => {
      if (result.result === 'requires_registration') {
        setState({ kind: 'registration', email: result.email, organizationName: result.organizationName });
      } else if (result.result === 'requires_login') {
        // Kept for the login page, which takes it up right after signing in.
        rememberInvitation(token);
        setState({ kind: 'requires_login', email: result.email });
      } else if (result.result === 'requires_confirmation') {
        setState({ kind: 'confirm', from: result.from, to: result.to, joining: false });
      } else {
        forgetInvitation(token);
        // The organization and role changed: take a token with the new claims.
        await refreshSession();
        await invalidate(queryClient, 'organizationJoined');
        setState({ kind: 'success', organizationName: result.organizationName });
      }
    },
    [token, queryClient],
  );

  useEffect(() => {
    // Wait for the start-up session check: a signed-in invitee sends the bearer and is asked to confirm.
    if (!token || status === 'loading' || started.current) return;
    started.current = true;
    acceptInvitation(token)
      .then(settle)
      .catch((error: unknown) => setState(errorState(error)));
  }, [token, status, settle]);

  function join() {
    if (!token || state.kind !== 'confirm') return;
    setState({ ...state, joining: true });
    acceptInvitation(token, true)
      .then(settle)
      .catch((error: unknown) => setState(errorState(error)));
  }

  /** The invitee stays; the invitation stays open on the server until it expires. */
  function decline(organizationName: string) {
    forgetInvitation(token);
    setState({ kind: 'declined', organizationName });
  }

  useEffect(() => {
    if (state.kind !== 'success' && state.kind !== 'requires_login') return;
    const target = state.kind === 'success' ? PATHS.dashboard : `${PATHS.login}?token=${encodeURIComponent(token ?? '')}`;
    const timer = window.setTimeout(() => navigate(target, { replace: true }), TIMING.acceptanceRedirectMs);
    return () => window.clearTimeout(timer);
  }, [state.kind, navigate, token]);

  return (
    <CenteredLayout>
      <Card>
        {state.kind === 'processing' && (
          <CardHeader>
            <CardTitle asChild>
              <h1>{t.acceptTitle}</h1>
            </CardTitle>
            <div role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
              <Loader2 className="size-4 animate-spin" aria-hidden />
              {t.acceptProcessing}
            </div>
          </CardHeader>
        )}
        {state.kind === 'registration' && (
          <RegistrationCard
            token={token}
            email={state.email}
            organizationName={state.organizationName}
            onRegistered={() => setState({ kind: 'success', organizationName: state.organizationName })}
          />
        )}
        {state.kind === 'success' && (
          <OutcomeCard
            icon={<CheckCircle2 className="size-5 text-primary" aria-hidden />}
            title={t.acceptSuccessTitle}
            description={t.acceptJoined(state.organizationName)}
            to={PATHS.dashboard}
            action={MESSAGES.shell.nav.dashboard}
          />
        )}
        {state.kind === 'confirm' && (
          <>
            <CardHeader>
              <CardTitle asChild>
                <h1>{m.confirmTitle}</h1>
              </CardTitle>
              <CardDescription>
                {m.confirmMove(
                  state.from.organizationName,
                  roleLabel(state.from.role),
                  state.to.organizationName,
                  roleLabel(state.to.role),
                )}
              </CardDescription>
              <CardDescription>{m.confirmConsequence(state.from.organizationName)}</CardDescription>
            </CardHeader>
            <CardFooter className="flex flex-col gap-2 sm:flex-row">
              <Button
                variant="outline"
                className="w-full sm:flex-1"
                disabled={state.joining}
                onClick={() => decline(state.from.organizationName)}
              >
                {m.cancel}
              </Button>
              <Button className="w-full sm:flex-1" disabled={state.joining} onClick={join}>
                {state.joining ? m.joining : m.join}
              </Button>
            </CardFooter>
          </>
        )}
        {state.kind === 'declined' && (
          <OutcomeCard
            title={m.declinedTitle}
            description={m.declined(state.organizationName)}
            to={PATHS.dashboard}
            action={MESSAGES.shell.nav.dashboard}
          />
        )}
        {state.kind === 'requires_login' && (
          <OutcomeCard
            title={t.acceptLoginTitle}
            description={t.acceptLoginBody(state.email)}
            to={`${PATHS.login}?token=${encodeURIComponent(token ?? '')}`}
            action={t.goToLogin}
          />
        )}
        {state.kind === 'error' && (
          <>
            <CardHeader>
              <CardTitle asChild>
                <h1>{t.acceptFailedTitle}</h1>
              </CardTitle>
            </CardHeader>
            <CardContent className="space-y-4">
              <ErrorAlert title={t.acceptFailedTitle} message={state.message} />
              <details className="rounded-md border p-3 text-sm">
                <summary className="cursor-pointer font-medium">{t.technicalDetails}</summary>
                <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-muted-foreground">
                  <dt>Code</dt>
                  <dd className="font-mono break-all">{state.code}</dd>
                  {state.status !== null && (
                    <>
                      <dt>Status</dt>
                      <dd className="font-mono">{state.status}</dd>
                    </>
                  )}
                </dl>
              </details>
            </CardContent>
            <CardFooter className="flex flex-col gap-2 sm:flex-row">
              <Button variant="outline" className="w-full sm:flex-1" onClick={() => window.location.reload()}>
                {t.retry}
              </Button>
              <Button asChild className="w-full sm:flex-1">
                <Link to={PATHS.login}>{t.goToLogin}</Link>
              </Button>
            </CardFooter>
          </>
        )}
      </Card>
    </CenteredLayout>
  );
}

/** An outcome that is final on this page: what happened, said as a status, and the one way on. */
function OutcomeCard({
  icon,
  title,
  description,
  to,
  action,
}: {
  icon?: ReactNode;
  title: string;
  description: string;
  to: string;
  action: string;
}) {
  return (
    <>
      <CardHeader>
        <CardTitle asChild>
          <h1 className={icon ? 'flex items-center gap-2' : undefined}>
            {icon}
            {title}
          </h1>
        </CardTitle>
        <CardDescription role="status">{description}</CardDescription>
      </CardHeader>
      <CardFooter>
        <Button asChild className="w-full">
          <Link to={to} replace>
            {action}
          </Link>
        </Button>
      </CardFooter>
    </>
  );
}

function RegistrationCard({
  token,
  email,
  organizationName,
  onRegistered,
}: {
  token: string | null;
  email: string;
  organizationName: string;
  onRegistered(): void;
}) {
  const register = useRegisterInvitation();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<RegistrationForm>({
    resolver: zodResolver(registrationFormSchema),
    defaultValues: { password: '', confirm: '' },
  });
  const { isSubmitting } = form.formState;

  async function submit({ password }: RegistrationForm) {
    setFailure(null);
    if (!token || !email) {
      setFailure(MESSAGES.invitations.missingData);
      return;
    }
    try {
      await register.mutateAsync({ token, password });
      onRegistered();
    } catch (error) {
      setFailure(error instanceof Error ? error.message : MESSAGES.generic.unknown);
    }
  }

  return (
    <>
      <CardHeader>
        <CardTitle asChild>
          <h1>{t.acceptRegisterTitle}</h1>
        </CardTitle>
        <CardDescription>{t.acceptRegisterBody(organizationName)}</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate className="space-y-4" onSubmit={(event) => void form.handleSubmit(submit)(event)}>
          {failure && <ErrorAlert title={t.registrationFailed} message={failure} />}
          <FormField id="register-email" label="Email" type="email" value={email} readOnly />
          <PasswordField id="register-password" label="Password" autoComplete="new-password" {...fieldOf(form, 'password')} />
          <PasswordField id="register-confirm" label="Confirm password" autoComplete="new-password" {...fieldOf(form, 'confirm')} />
          <Button type="submit" className="w-full" disabled={isSubmitting}>
            {isSubmitting ? t.acceptRegistering : t.acceptRegisterButton}
          </Button>
        </form>
      </CardContent>
    </>
  );
}
