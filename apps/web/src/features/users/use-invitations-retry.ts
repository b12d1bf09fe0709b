import { INVITATION_RETRY, invitationRetryDelayMs, isFirstLoginWindow } from '@console/domain';
import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '@/lib/api';
import { useAuth } from '@/lib/auth';

/**
 * A failure that may pass: no answer at all, a timeout, rate limiting or a server error.
 * Anything else in the 4xx range answers the same the second time.
 */
export function isTransient(error: Error | null): boolean {
  if (!(error instanceof ApiError)) return error !== null;
  return error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
}

export type InvitationsLoadState =
  /** Loaded, loading, or a refusal the list shows as it is (no retries). */
  | { kind: 'none' }
  /** A new account's first load failing transiently: retried on its own, quickly. */
  | { kind: 'setup'; attempts: number; manualLeft: number; manualRetry(): void }
  /** A transient failure: the person chooses; `auto` while automatic attempts run or after they stopped. */
  | {
      kind: 'error';
      error: Error;
      busy: boolean;
      auto: { attempts: number; running: boolean } | null;
      retryOnce(): void;
      autoRetry(): void;
    };

/**
 * The retry behaviour of the invitations list. The query itself does not retry
 * (`retry: false`): this counts failed attempts in a series and schedules the next one
 * with the domain's backoff while automatic retrying is on. Automatic retrying starts by
 * itself only during a new account's first minutes, when the list has never loaded;
 * otherwise Auto Retry starts a series. A success ends the series.
 */
export function useInvitationsRetry(
  query: Pick<UseQueryResult<unknown>, 'isError' | 'error' | 'isFetching' | 'data' | 'errorUpdatedAt' | 'dataUpdatedAt' | 'refetch'>,
): InvitationsLoadState {
  const { user } = useAuth();
  // Decided once: the first-login window is about this visit, not a clock that runs out mid-series.
  const [firstLogin] = useState(() => isFirstLoginWindow(user?.created_at));
  const [attempts, setAttempts] = useState(0);
  const [auto, setAuto] = useState(firstLogin);
  /** The setup screen belongs to the first series; one the person starts shows the error screen. */
  const [personStarted, setPersonStarted] = useState(false);
  const [manualUsed, setManualUsed] = useState(0);
  /** The failure of the last attempt: a list that never loaded reads as loading again while the next runs. */
  const [lastError, setLastError] = useState<Error | null>(null);
  const seenError = useRef(0);
  const seenData = useRef(query.dataUpdatedAt);

  // Each failed load is one attempt; a load that succeeds ends the series.
  useEffect(() => {
    if (query.isError && query.errorUpdatedAt !== seenError.current) {
      seenError.current = query.errorUpdatedAt;
      setAttempts((n) => n + 1);
      setLastError(query.error);
    }
  }, [query.isError, query.errorUpdatedAt, query.error]);
  useEffect(() => {
    if (query.dataUpdatedAt !== seenData.current && !query.isError) {
      seenData.current = query.dataUpdatedAt;
      setAttempts(0);
      setAuto(false);
      setLastError(null);
    }
  }, [query.dataUpdatedAt, query.isError]);

  // While an attempt runs the screen stays as it was, rather than flashing the loading rows.
  const error = query.isError ? query.error : query.isFetching && attempts > 0 ? lastError : null;
  const transient = isTransient(error);
  const { refetch } = query;
  // A series stops by itself after its last attempt.
  const retrying = auto && attempts < INVITATION_RETRY.maxAttempts;
  useEffect(() => {
    if (!transient || !retrying || query.isFetching || attempts === 0) return;
    const timer = setTimeout(() => void refetch(), invitationRetryDelayMs(attempts - 1, firstLogin && !personStarted));
    return () => clearTimeout(timer);
  }, [transient, retrying, query.isFetching, attempts, firstLogin, personStarted, refetch]);

  if (!transient || !error) return { kind: 'none' };
  if (firstLogin && !personStarted && retrying && query.data === undefined) {
    return {
      kind: 'setup',
      attempts,
      manualLeft: INVITATION_RETRY.maxManual - manualUsed,
      manualRetry() {
        if (manualUsed >= INVITATION_RETRY.maxManual) return;
        setManualUsed((n) => n + 1);
        void refetch();
      },
    };
  }
  return {
    kind: 'error',
    error,
    busy: query.isFetching,
    auto: personStarted || firstLogin ? { attempts, running: retrying } : null,
    retryOnce() {
      setAuto(false);
      void refetch();
    },
    autoRetry() {
      setPersonStarted(true);
      setAttempts(0);
      setAuto(true);
      void refetch();
    },
  };
}
