import {
  authEndpoints,
  decodeJwtPart,
  normalizeClaims,
  type NormalizedClaims,
  type Session,
  type SignInBody,
  type UserProfile,
} from '@console/domain';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { ApiError, call, refreshSession } from './api';
import { sessionStore, type AuthStatus, type SessionEnd } from './session-store';

export interface AuthContextValue {
  status: AuthStatus;
  session: Session | null;
  /** Role and organization claims of the access token, for the UI only (the server decides). */
  claims: NormalizedClaims | null;
  user: UserProfile | null;
  /** Why the last session of this tab ended, while signed out after it. */
  ended: SessionEnd | null;
  signIn(body: SignInBody): Promise<Session>;
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

  const signIn = useCallback(
    async (body: SignInBody) => {
      const next = await call(authEndpoints.signIn, { body });
      queryClient.clear();
      sessionStore.set(next);
      return next;
    },
    [queryClient],
  );

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
      signOut,
      clearSession,
    }),
    [status, session, claims, ended, signIn, signOut, clearSession],
  );
  return <AuthContext value={value}>{children}</AuthContext>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
