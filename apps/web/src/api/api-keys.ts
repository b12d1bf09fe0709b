import { apiKeysEndpoints as endpoints, type CreateApiKeyInput } from '@console/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api';

/** Every API keys query key, so invalidations name what they refresh. */
export const apiKeyKeys = {
  all: ['api-keys'] as const,
  list: (organizationId: string) => ['api-keys', organizationId] as const,
};

export const apiKeyQueries = {
  /** The organization's API keys (its own admins only): name, prefix, scopes, creator and use. */
  list: (organizationId: string) =>
    queryOptions({
      queryKey: apiKeyKeys.list(organizationId),
      queryFn: ({ signal }) => call(endpoints.list, { params: { id: organizationId } }, { signal }),
      select: (answer) => answer.api_keys,
    }),
};

/** Makes a key; the answer holds the secret, which is never shown again. */
export function useCreateApiKey(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiKeyInput) => call(endpoints.create, { params: { id: organizationId }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.list(organizationId) }),
  });
}

/** Revokes a key: runtimes using it are refused from then on. */
export function useRevokeApiKey(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (keyId: string) => (await call(endpoints.revoke, { params: { id: organizationId, keyId } })).api_key,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.list(organizationId) }),
  });
}
