import {
  authEndpoints,
  decodeJwtPart,
  isMfaChallenge,
  normalizeClaims,
  type MfaChallenge,
  type NormalizedClaims,
  type SecondFactorBody,
  type Session,
  type SignInBody,
  type UserProfile,
} from '@console/domain';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { ApiError, call, refreshSession } from './api';
import { signWithPasskey } from './passkey';
import { sessionStore, type AuthStatus, type SessionEnd } from './session-store';

export interface AuthContextValue {
  status: AuthStatus;
  session: Session | null;
  /** Role and organization claims of the access token, for the UI only (the server decides). */
  claims: NormalizedClaims | null;
  user: UserProfile | null;
  /** Why the last session of this tab ended, while signed out after it. */
  ended: SessionEnd | null;
  /** Signs in with the password: the session starts, or a challenge asks for a second factor first. */
  signIn(body: SignInBody): Promise<Session | MfaChallenge>;
  /** Answers a sign-in challenge with a code; the session starts as after a password. */
  answerChallenge(body: SecondFactorBody): Promise<Session>;
  /** Passwordless sign-in with a passkey (the browser's prompt); throws a PasskeyError or the server's refusal. */
  signInWithPasskey(): Promise<Session>;
  /** Ends the session on the server, then here. Throws when the server could not be reached. */
  signOut(): Promise<void>;
  /** Forgets the session in this tab only, with why it ended when the sign-in page should say so. */
  clearSession(ended?: SessionEnd): void;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const { status, session, ended } = useSyncExternalStore(sessionStore.subscribe, sessionStore.get);

  useEffect(() => {
    // Restores the session from the refresh cookie once at start-up.
    if (sessionStore.get().status === 'loading') void refreshSession();
  }, []);

  const claims = useMemo(() => (session ? normalizeClaims(decodeJwtPart(session.access_token, 1)).claims : null), [session]);

  const clearSession = useCallback(
    (reason?: SessionEnd) => {
      sessionStore.set(null, reason ?? null);
      // Cached answers belong to the previous user.
      queryClient.clear();
    },
    [queryClient],
  );

  const startSession = useCallback(
    (next: Session) => {
      queryClient.clear();
      sessionStore.set(next);
      return next;
    },
    [queryClient],
  );

  const signIn = useCallback(
    async (body: SignInBody) => {
      const result = await call(authEndpoints.signIn, { body });
      // A challenge starts no session: the second factor must answer it first.
      return isMfaChallenge(result) ? result : startSession(result);
    },
    [startSession],
  );

  const answerChallenge = useCallback(
    async (body: SecondFactorBody) => startSession(await call(authEndpoints.secondFactor, { body })),
    [startSession],
  );

  /** Passwordless: the browser's passkey prompt, then the session of the passkey's person. */
  const signInWithPasskey = useCallback(async () => {
    const options = await call(authEndpoints.passkeyOptions, { body: {} });
    const response = await signWithPasskey(options);
    return startSession(await call(authEndpoints.passkeySignIn, { body: { response } }));
  }, [startSession]);

  const signOut = useCallback(async () => {
    try {
      // The refresh cookie names the session too, so an expired access token does not stop this.
      await call(authEndpoints.signOut);
    } catch (error) {
      // 401: the session had already ended on the server.
      if (!(error instanceof ApiError && error.status === 401)) throw error;
    }
    clearSession('signed-out');
  }, [clearSession]);

  const value = useMemo<AuthContextValue>(
    () => ({
      status,
      session,
      claims,
      user: session?.user ?? null,
      ended,
      signIn,
      answerChallenge,
      signInWithPasskey,
      signOut,
      clearSession,
    }),
    [status, session, claims, ended, signIn, answerChallenge, signInWithPasskey, signOut, clearSession],
  );
  return <AuthContext value={value}>{children}</AuthContext>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
