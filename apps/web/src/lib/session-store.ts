import type { Session } from '@console/domain';

export type AuthStatus = 'loading' | 'signed-in' | 'signed-out';

export interface SessionState {
  status: AuthStatus;
  session: Session | null;
}

/**
 * The one in-memory copy of the session (the access token never goes to storage).
 * It lives outside React so the API client can read the token and install a
 * refreshed session without a component in between.
 */
let state: SessionState = { status: 'loading', session: null };
const listeners = new Set<() => void>();

export const sessionStore = {
  get: (): SessionState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  set(session: Session | null): void {
    state = { status: session ? 'signed-in' : 'signed-out', session };
    listeners.forEach((listener) => listener());
  },
  /** Back to the start-up state; tests use it to isolate cases. */
  reset(): void {
    state = { status: 'loading', session: null };
    listeners.forEach((listener) => listener());
  },
  accessToken: (): string | null => state.session?.access_token ?? null,
};
