import { zodResolver } from '@hookform/resolvers/zod';
import {
  isMfaChallenge,
  isSsoSignInError,
  signInBodySchema,
  TIMING,
  UI,
  type MfaChallenge,
  type SecondFactorBody,
  type SignInBody,
} from '@console/domain';
import { AlertCircle, Info, KeyRound, Loader2 } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
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
import { classifyLoginError, MESSAGES } from '../wording';
import { fieldOf } from '@/lib/form';
import { discoverSignIn } from '@/api/identity';
import { ApiError } from '@/lib/api';
import { browser } from '@/lib/reload';

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

/** A refusal that is not a failed password: single sign-on that did not complete, or a password the organization turned off. */
interface Notice {
  title: string;
  message: string;
}

function NoticeAlert({ notice }: { notice: Notice }) {
  return (
    <Alert variant="destructive">
      <AlertCircle aria-hidden />
      <AlertTitle>{notice.title}</AlertTitle>
      <AlertDescription>{notice.message}</AlertDescription>
    </Alert>
  );
}

function ForgotPasswordLink() {
  return (
    <Link to={PATHS.resetPassword} className="text-sm underline-offset-4 hover:underline">
      {MESSAGES.authPages.forgotPassword}
    </Link>
  );
}

/** The sign-in's first step is the e-mail: its organization's provider signs it in, or the password does (the second step). */
type Step = 'email' | 'password';

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
  const [step, setStep] = useState<Step>('email');
  const [discovering, setDiscovering] = useState(false);
  // The organization whose provider the browser is being sent to.
  const [redirecting, setRedirecting] = useState<string | null>(null);
  // A provider's sign-in that came back without a session says why in `?sso_error=`.
  const [notice, setNotice] = useState<Notice | null>(() => {
    const reason = searchParams.get('sso_error');
    return isSsoSignInError(reason) ? { title: MESSAGES.auth.ssoFailedTitle, message: MESSAGES.identity.signInErrors[reason] } : null;
  });
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

  function showStep(next: Step) {
    setStep(next);
    // The step's field is shown once this render is done.
    window.setTimeout(() => form.setFocus(next), 0);
  }

  /** The first step: where the e-mail signs in. A provider's is a full-page visit; otherwise the password step. */
  async function continueWithEmail(event: FormEvent) {
    event.preventDefault();
    if (!(await form.trigger('email'))) return;
    setFailure(null);
    setNotice(null);
    setDiscovering(true);
    try {
      const result = await discoverSignIn(form.getValues('email'));
      if (result.method === 'sso') {
        setRedirecting(result.organization_name);
        browser.assign(result.redirect_url);
        return;
      }
      showStep('password');
    } catch (error) {
      // Unreachable or too many attempts: say so. Any other failure to look the way up leaves
      // the password, as before single sign-on (the server still refuses it where required).
      if (error instanceof ApiError && (error.status === 0 || error.status === 429)) {
        setFailure({ kind: classifyLoginError(error.message), message: error.message });
      } else {
        showStep('password');
      }
    } finally {
      setDiscovering(false);
    }
  }

  /**
   * Straight to the password, without looking the e-mail up: the break-glass admin of an
   * organization that signs in through its provider, or a person of another organization whose
   * address is at a claimed domain. The server still refuses the password where it must.
   */
  async function continueWithPassword() {
    if (!(await form.trigger('email'))) return;
    setFailure(null);
    setNotice(null);
    showStep('password');
  }

  /** Back to the e-mail step, to sign in as someone else. */
  function changeEmail() {
    window.clearTimeout(retryTimer.current);
    setFailure(null);
    setNotice(null);
    setStepNotice(null);
    form.resetField('password');
    showStep('email');
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
      // The organization signs its people in through its provider: no password is wrong, there is none to use.
      if (message === MESSAGES.identity.passwordDisabled) {
        networkRetries.current = 0;
        setFailure(null);
        setNotice({ title: MESSAGES.auth.passwordDisabledTitle, message });
        return;
      }
      setNotice(null);
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
              {ended && !failure && !stepNotice && !notice && <SessionEndedNotice ended={ended} />}
              {stepNotice && !failure && (
                <Alert variant="info">
                  <Info aria-hidden />
                  <AlertDescription>{stepNotice}</AlertDescription>
                </Alert>
              )}
              {failure && <LoginErrorAlert failure={failure} />}
              {notice && !failure && <NoticeAlert notice={notice} />}
              {redirecting ? (
                <p role="status" className="flex items-center gap-2 text-sm">
                  <Loader2 className="size-4 animate-spin" aria-hidden />
                  {MESSAGES.auth.continuingTo(redirecting)}
                </p>
              ) : step === 'email' ? (
                <form noValidate className="space-y-4" onSubmit={(event) => void continueWithEmail(event)}>
                  <FormField id="email" label="Email" type="email" autoComplete="username" required {...fieldOf(form, 'email')} />
                  <div className="flex justify-end">
                    <ForgotPasswordLink />
                  </div>
                  <Button type="submit" className="w-full" disabled={discovering}>
                    {discovering ? MESSAGES.auth.checkingEmail : MESSAGES.auth.continue}
                  </Button>
                  <Button
                    type="button"
                    variant="link"
                    className="h-auto w-full p-0 text-sm"
                    disabled={discovering}
                    onClick={() => void continueWithPassword()}
                  >
                    {MESSAGES.auth.signInWithPassword}
                  </Button>
                </form>
              ) : (
                <form noValidate className="space-y-4" onSubmit={(event) => void form.handleSubmit(attempt)(event)}>
                  {/* Kept as a field (read-only) so password managers pair the password with its account. */}
                  <FormField
                    id="email"
                    label="Email"
                    type="email"
                    autoComplete="username"
                    readOnly
                    className="bg-muted/50"
                    {...fieldOf(form, 'email')}
                  />
                  <PasswordField id="password" label="Password" autoComplete="current-password" {...fieldOf(form, 'password')} />
                  <div className="flex flex-wrap justify-between gap-2">
                    <Button type="button" variant="link" className="h-auto p-0 text-sm" onClick={changeEmail}>
                      {MESSAGES.auth.changeEmail}
                    </Button>
                    <ForgotPasswordLink />
                  </div>
                  <Button type="submit" className="w-full" disabled={isSubmitting}>
                    {isSubmitting ? 'Signing in…' : 'Sign in'}
                  </Button>
                </form>
              )}
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
