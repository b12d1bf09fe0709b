import {
  accountEndpoints as endpoints,
  type AddPasskeyBody,
  type ConfirmTotpBody,
  type FactorCodeBody,
  type PasskeyProofBody,
  type StartTotpBody,
} from '@console/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api';
import { invalidate } from './invalidation';
import { accountKeys } from './query-keys';

export const accountQueries = {
  /** Whether an authenticator app is set up, and how many recovery codes are left. */
  factors: () => queryOptions({ queryKey: accountKeys.factors, queryFn: ({ signal }) => call(endpoints.factors, {}, { signal }) }),
  /** The person's sessions, this one marked. */
  sessions: () =>
    queryOptions({
      queryKey: accountKeys.sessions,
      queryFn: async ({ signal }) => (await call(endpoints.sessions, {}, { signal })).items,
    }),
  /** The person's passkeys. */
  passkeys: () =>
    queryOptions({
      queryKey: accountKeys.passkeys,
      queryFn: async ({ signal }) => (await call(endpoints.passkeys, {}, { signal })).items,
    }),
};

/**
 * A change to the person's factors or sessions: both cards refresh, as adding or removing
 * the app also ends the other sessions.
 */
function useAccountMutation<T, R>(mutationFn: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => invalidate(queryClient, 'accountChanged') });
}

/** Starts an authenticator app setup with the password: its secret and QR code. Nothing is stored yet, so nothing refreshes. */
export function useStartTotp() {
  return useMutation({ mutationFn: (body: StartTotpBody) => call(endpoints.startTotp, { body }) });
}

/** Confirms the app with a first code; answers the recovery codes, shown once. */
export const useConfirmTotp = () => useAccountMutation((body: ConfirmTotpBody) => call(endpoints.confirmTotp, { body }));

/** Removes the app (and its recovery codes) with a current code. */
export const useRemoveTotp = () => useAccountMutation((body: FactorCodeBody) => call(endpoints.removeTotp, { body }));

/** Ten new recovery codes with a current code; the old ones stop working. */
export const useRegenerateRecoveryCodes = () =>
  useAccountMutation((body: FactorCodeBody) => call(endpoints.regenerateRecoveryCodes, { body }));

/** Ends one of the person's other sessions. */
export const useEndSession = () => useAccountMutation((sessionId: string) => call(endpoints.endSession, { params: { sessionId } }));

/** Ends every session of the person but this one. */
export const useEndOtherSessions = () => useAccountMutation(() => call(endpoints.endOtherSessions));

// Passkeys

/** The browser's options to make a passkey, after the password again. Nothing is stored yet, so nothing refreshes. */
export function usePasskeyRegistrationOptions() {
  return useMutation({ mutationFn: (body: StartTotpBody) => call(endpoints.passkeyRegistrationOptions, { body }) });
}

/** Adds the passkey the browser made; answers recovery codes when it is the first factor. */
export const useAddPasskey = () => useAccountMutation((body: AddPasskeyBody) => call(endpoints.addPasskey, { body }));

export const useRenamePasskey = () =>
  useAccountMutation(({ passkeyId, name }: { passkeyId: string; name: string }) =>
    call(endpoints.renamePasskey, { params: { passkeyId }, body: { name } }),
  );

/** The browser's options to confirm a removal with a passkey. */
export function usePasskeyCheckOptions() {
  return useMutation({ mutationFn: () => call(endpoints.passkeyCheckOptions) });
}

export const useRemovePasskey = () =>
  useAccountMutation(({ passkeyId, proof }: { passkeyId: string; proof: PasskeyProofBody }) =>
    call(endpoints.removePasskey, { params: { passkeyId }, body: proof }),
  );
