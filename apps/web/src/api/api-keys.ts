import {
  API_KEY_LIFECYCLE,
  apiKeysEndpoints as endpoints,
  type ApiKeyFilter,
  type CreateApiKeyInput,
  type RollApiKeyInput,
  type UpdateApiKeyInput,
} from '@console/domain';
import { infiniteQueryOptions, keepPreviousData, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api';
import { invalidate as invalidateChange } from './invalidation';
import { apiKeyKeys } from './query-keys';

export const apiKeyQueries = {
  /**
   * The organization's API keys (its own admins only), live ones first, then newest, a page at
   * a time; the next page follows `next_cursor`. `state` keeps live, expiring or revoked (and expired) keys.
   */
  list: (organizationId: string, state: ApiKeyFilter | null = null) =>
    infiniteQueryOptions({
      queryKey: apiKeyKeys.list(organizationId, state),
      queryFn: ({ pageParam, signal }) =>
        call(
          endpoints.list,
          {
            params: { id: organizationId },
            query: { state: state ?? undefined, cursor: pageParam, limit: API_KEY_LIFECYCLE.listPageSize },
          },
          { signal },
        ),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last) => last.next_cursor ?? undefined,
      placeholderData: keepPreviousData,
    }),
};

/** After a change, every list of the organization's keys (each filter) is read again. */
function useInvalidateKeys(organizationId: string) {
  const queryClient = useQueryClient();
  return () => invalidateChange(queryClient, 'apiKeysChanged', organizationId);
}

/** Makes a key; the answer holds the secret, which is never shown again. */
export function useCreateApiKey(organizationId: string) {
  const invalidate = useInvalidateKeys(organizationId);
  return useMutation({
    mutationFn: (body: CreateApiKeyInput) => call(endpoints.create, { params: { id: organizationId }, body }),
    onSuccess: invalidate,
  });
}

/** Renames a live key, or changes its end date or rate limit; only the fields given change. */
export function useUpdateApiKey(organizationId: string) {
  const invalidate = useInvalidateKeys(organizationId);
  return useMutation({
    mutationFn: async ({ keyId, body }: { keyId: string; body: UpdateApiKeyInput }) =>
      (await call(endpoints.update, { params: { id: organizationId, keyId }, body })).api_key,
    onSuccess: invalidate,
  });
}

/** Gives a live key a new secret, answered once; the old one works for the grace period chosen. */
export function useRollApiKey(organizationId: string) {
  const invalidate = useInvalidateKeys(organizationId);
  return useMutation({
    mutationFn: ({ keyId, body }: { keyId: string; body: RollApiKeyInput }) =>
      call(endpoints.roll, { params: { id: organizationId, keyId }, body }),
    onSuccess: invalidate,
  });
}

/** Revokes a key: runtimes using it, with either secret, are refused from then on. */
export function useRevokeApiKey(organizationId: string) {
  const invalidate = useInvalidateKeys(organizationId);
  return useMutation({
    mutationFn: async (keyId: string) => (await call(endpoints.revoke, { params: { id: organizationId, keyId } })).api_key,
    onSuccess: invalidate,
  });
}
