import { MFA } from '@console/domain';
import { createChangePassword } from './change-password.ts';
import { createGuessThrottle, type GuessLimits } from './guesses.ts';
import { createSessionIssuer, type AuthDeps } from './queries.ts';
import { createRecovery } from './recovery.ts';
import { createRefresh } from './refresh.ts';
import { createPasskeySignIn } from './passkey-sign-in.ts';
import { createSecondFactorSignIn } from './second-factor.ts';
import { createSignIn } from './sign-in.ts';
import { createStepUp } from './step-up.ts';

export { REFRESH_REUSE_GRACE_SECONDS, type IssuedSession } from './queries.ts';
export type { FailureLog } from './recovery.ts';

/** The auth service: sign-in (and its second factor), refresh rotation, sign-out, recovery, password changes. */
export function createAuthService({
  limits,
  stepUpFreshSeconds = MFA.stepUpFreshSeconds,
  ...rest
}: Omit<AuthDeps, 'guesses'> & { limits: GuessLimits; stepUpFreshSeconds?: number }) {
  const deps: AuthDeps = { ...rest, guesses: createGuessThrottle(rest.db, limits) };
  const sessions = createSessionIssuer(deps);
  const secondFactor = createSecondFactorSignIn({ ...deps, sessions });
  const { signIn, signOut } = createSignIn({ ...deps, sessions, challenge: secondFactor.challenge });
  const { refresh } = createRefresh({ ...deps, sessions });
  const passkey = createPasskeySignIn({ ...deps, sessions });
  const { requestRecovery, settle, resetPassword } = createRecovery(deps);
  const { changePassword } = createChangePassword(deps);
  const stepUp = createStepUp({ ...deps, freshSeconds: stepUpFreshSeconds });
  return {
    signIn,
    answerChallenge: secondFactor.answer,
    passkeyOptions: passkey.options,
    passkeySignIn: passkey.signIn,
    startSession: sessions.startSession,
    refresh,
    signOut,
    requestRecovery,
    settle,
    resetPassword,
    changePassword,
    stepUpStatus: stepUp.status,
    stepUp: stepUp.stepUp,
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
