import { zodResolver } from '@hookform/resolvers/zod';
import { isMfaChallenge, signInBodySchema, TIMING, UI, type MfaChallenge, type SecondFactorBody, type SignInBody } from '@console/domain';
import { AlertCircle, Info, KeyRound } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { useAuth } from '@/lib/auth';
import type { SessionEnd } from '@/lib/session-store';
import { NEXT_PARAM, PATHS, returnPathOf } from '@/lib/paths';
import { CenteredLayout } from '@/components/centered-layout';
import { FormField } from '@/components/form-field';
import { PasswordField } from '@/components/password-field';
import { LoginErrorAlert, type LoginFailure } from '../components/login-error-alert';
import { SecondFactorStep } from '../components/second-factor-step';
import { acceptPendingInvitation, rememberInvitation } from '@/lib/pending-invitation';
import { classifyLoginError, MESSAGES } from '@/lib/wording';
import { fieldOf } from '@/lib/form';

/** What the page says about the session that just ended, if one did. */
function SessionEndedNotice({ ended }: { ended: SessionEnd }) {
  const { auth } = MESSAGES;
  return (
    <Alert variant="info">
      <Info aria-hidden />
      <AlertTitle>{ended === 'expired' ? auth.sessionExpiredTitle : auth.signedOutTitle}</AlertTitle>
      <AlertDescription>{ended === 'expired' ? auth.sessionExpiredBody : auth.signedOutBody}</AlertDescription>
    </Alert>
  );
}

export default function LoginPage() {
  const { signIn, answerChallenge, signInWithPasskey, status, ended } = useAuth();
  // A passwordless sign-in's refusal (the browser cancelled, or the server refused the passkey).
  const [passkeyFailure, setPasskeyFailure] = useState<string | null>(null);
  const [passkeyPending, setPasskeyPending] = useState(false);
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  // Where to go once signed in: the page the person was on, if it is one of this console's.
  const next = returnPathOf(searchParams.get(NEXT_PARAM)) ?? PATHS.dashboard;
  // Set while this page signs in, so it finishes (invitation, navigation) rather than being redirected.
  const signingIn = useRef(false);
  const [pendingInvitation] = useState(() => rememberInvitation(searchParams.get('token')));
  const [failure, setFailure] = useState<LoginFailure | null>(null);
  // A right password for a person with a second factor: the second step, until it is answered or abandoned.
  const [challenge, setChallenge] = useState<MfaChallenge | null>(null);
  // Why the page is back at the password step after a second step, when it should say so.
  const [stepNotice, setStepNotice] = useState<string | null>(null);
  // The first network error retries once by itself; any other outcome resets.
  const networkRetries = useRef(0);
  const retryTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(retryTimer.current), []);

  const form = useForm<SignInBody>({
    resolver: zodResolver(signInBodySchema),
    defaultValues: { email: '', password: '' },
  });
  const { isSubmitting } = form.formState;

  /** Once the session has started (after the password, or after the second step): the invitation, then onwards. */
  async function finish() {
    toast.success(MESSAGES.auth.loginSuccessful);
    // A pending invitation is taken up now; on failure it stays stored. Leaving the own
    // organization for it is asked on the invitation page, before anything moves.
    if (pendingInvitation && (await acceptPendingInvitation(pendingInvitation)) === 'confirm') {
      navigate(`${PATHS.invitation}?token=${encodeURIComponent(pendingInvitation)}`, { replace: true });
      return;
    }
    navigate(next, { replace: true });
  }

  async function answer(body: SecondFactorBody) {
    signingIn.current = true;
    try {
      await answerChallenge(body);
    } catch (error) {
      signingIn.current = false;
      throw error;
    }
    await finish();
  }

  /** Passwordless: the browser's passkey prompt names the person; no e-mail is typed. */
  async function continueWithPasskey() {
    setPasskeyFailure(null);
    setPasskeyPending(true);
    signingIn.current = true;
    try {
      await signInWithPasskey();
    } catch (error) {
      signingIn.current = false;
      setPasskeyPending(false);
      setPasskeyFailure(error instanceof Error ? error.message : MESSAGES.generic.unexpected);
      return;
    }
    await finish();
  }

  /** Back to the password step, the password to be typed again; `notice` says why when the step did not end by choice. */
  function backToPassword(notice: string | null) {
    setChallenge(null);
    setStepNotice(notice);
    form.resetField('password');
    // The password step is shown again once this render is done.
    window.setTimeout(() => form.setFocus('password'), 0);
  }

  async function attempt(values: SignInBody) {
    // A manual submit replaces a pending automatic retry.
    window.clearTimeout(retryTimer.current);
    signingIn.current = true;
    try {
      const result = await signIn(values);
      networkRetries.current = 0;
      setFailure(null);
      setStepNotice(null);
      if (isMfaChallenge(result)) {
        signingIn.current = false;
        setChallenge(result);
        return;
      }
      await finish();
    } catch (error) {
      signingIn.current = false;
      const message = error instanceof Error ? error.message : '';
      const kind = classifyLoginError(message);
      setFailure({ kind, message });
      if (kind !== 'network') {
        networkRetries.current = 0;
      } else if (networkRetries.current === 0) {
        networkRetries.current = 1;
        retryTimer.current = window.setTimeout(() => void form.handleSubmit(attempt)(), TIMING.loginNetworkRetryMs);
      }
    }
  }

  // Someone already signed in has nothing to do here.
  if (status === 'signed-in' && !signingIn.current) return <Navigate to={next} replace />;

  return (
    <CenteredLayout>
      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h1>Sign in</h1>
          </CardTitle>
          <CardDescription>{UI.productName}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {pendingInvitation && (
            <Alert variant="info">
              <Info aria-hidden />
              <AlertTitle>{MESSAGES.invitationToasts.pending}</AlertTitle>
              <AlertDescription>{MESSAGES.auth.pendingInvitationNotice}</AlertDescription>
            </Alert>
          )}
          {challenge ? (
            <SecondFactorStep
              challenge={challenge}
              onAnswer={answer}
              onBack={() => backToPassword(null)}
              onExpired={() => backToPassword(MESSAGES.auth.challengeExpired)}
            />
          ) : (
            <>
              {ended && !failure && !stepNotice && <SessionEndedNotice ended={ended} />}
              {stepNotice && !failure && (
                <Alert variant="info">
                  <Info aria-hidden />
                  <AlertDescription>{stepNotice}</AlertDescription>
                </Alert>
              )}
              {failure && <LoginErrorAlert failure={failure} />}
              <form noValidate className="space-y-4" onSubmit={(event) => void form.handleSubmit(attempt)(event)}>
                <FormField id="email" label="Email" type="email" autoComplete="username" required {...fieldOf(form, 'email')} />
                <PasswordField id="password" label="Password" autoComplete="current-password" {...fieldOf(form, 'password')} />
                <div className="flex justify-end">
                  <Link to={PATHS.resetPassword} className="text-sm underline-offset-4 hover:underline">
                    {MESSAGES.authPages.forgotPassword}
                  </Link>
                </div>
                <Button type="submit" className="w-full" disabled={isSubmitting}>
                  {isSubmitting ? 'Signing in…' : 'Sign in'}
                </Button>
              </form>
              <div className="flex items-center gap-3 text-xs text-muted-foreground" aria-hidden>
                <span className="h-px flex-1 bg-border" />
                {MESSAGES.auth.or}
                <span className="h-px flex-1 bg-border" />
              </div>
              {passkeyFailure && (
                <Alert variant="destructive">
                  <AlertCircle aria-hidden />
                  <AlertTitle>{MESSAGES.auth.passkeyFailed}</AlertTitle>
                  <AlertDescription>{passkeyFailure}</AlertDescription>
                </Alert>
              )}
              <Button
                type="button"
                variant="outline"
                className="w-full"
                disabled={passkeyPending}
                onClick={() => void continueWithPasskey()}
              >
                <KeyRound aria-hidden />
                {MESSAGES.auth.continueWithPasskey}
              </Button>
            </>
          )}
        </CardContent>
        <CardFooter>
          <p className="text-sm text-muted-foreground">{MESSAGES.auth.noAccountNote}</p>
        </CardFooter>
      </Card>
    </CenteredLayout>
  );
}
