import type { Session } from '@console/domain';

export type AuthStatus = 'loading' | 'signed-in' | 'signed-out';

/** Why this tab's last session ended: the server refused to refresh it, or its person signed out. */
export type SessionEnd = 'expired' | 'signed-out';

export interface SessionState {
  status: AuthStatus;
  session: Session | null;
  /** Set when a session of this tab ended, until the next one starts; the sign-in page says why. */
  ended: SessionEnd | null;
}

/**
 * The one in-memory copy of the session (the access token never goes to storage).
 * It lives outside React so the API client can read the token and install a
 * refreshed session without a component in between.
 */
let state: SessionState = { status: 'loading', session: null, ended: null };
const listeners = new Set<() => void>();

export const sessionStore = {
  get: (): SessionState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  set(session: Session | null, ended: SessionEnd | null = null): void {
    state = { status: session ? 'signed-in' : 'signed-out', session, ended: session ? null : ended };
    listeners.forEach((listener) => listener());
  },
  /** Back to the start-up state; tests use it to isolate cases. */
  reset(): void {
    state = { status: 'loading', session: null, ended: null };
    listeners.forEach((listener) => listener());
  },
  accessToken: (): string | null => state.session?.access_token ?? null,
};
