import {
  identityEndpoints as endpoints,
  scimTokensEndpoints as tokens,
  type ClaimDomainInput,
  type IdentityProviderInput,
  type IdentitySettingsInput,
  type IdentityView,
  type PendingDomainClaim,
  type SsoDiscoverResult,
} from '@console/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api';
import { invalidate } from './invalidation';
import { LIVE } from './live';
import { identityKeys } from './query-keys';

export const identityQueries = {
  /** The organization's provider, domains, sign-in rules, and who may be named for them (its own admins). */
  view: (organizationId: string) =>
    queryOptions({
      queryKey: identityKeys.view(organizationId),
      queryFn: ({ signal }) => call(endpoints.get, { params: { id: organizationId } }, { signal }),
    }),
  scimTokens: (organizationId: string) =>
    queryOptions({
      queryKey: identityKeys.scimTokens(organizationId),
      queryFn: ({ signal }) => call(tokens.list, { params: { id: organizationId } }, { signal }),
    }),
  /** The provider's last provisioning calls: live, as the provider calls without anyone here doing anything. */
  scimCalls: (organizationId: string) =>
    queryOptions({
      queryKey: identityKeys.scimCalls(organizationId),
      queryFn: ({ signal }) => call(tokens.calls, { params: { id: organizationId } }, { signal }),
      ...LIVE,
    }),
  /** The tree's pending domain claims, oldest first (house admins). */
  pendingClaims: () =>
    queryOptions({
      queryKey: identityKeys.pendingClaims,
      queryFn: ({ signal }) => call(endpoints.pendingClaims, {}, { signal }),
    }),
};

/**
 * A change whose answer is the whole view: it replaces the cached one. A claim made or
 * withdrawn (`claims`) may be one the house's admins review, so their list is read again too.
 */
function useViewMutation<Variables>(
  organizationId: string,
  send: (variables: Variables) => Promise<IdentityView>,
  { claims = false }: { claims?: boolean } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (view) => {
      queryClient.setQueryData(identityKeys.view(organizationId), view);
      if (claims) void invalidate(queryClient, 'domainClaimsChanged');
    },
  });
}

/** Registers or changes the provider; a secret left out stays as it was. Asks for a step-up. */
export function useSetIdentityProvider(organizationId: string) {
  return useViewMutation(organizationId, (body: IdentityProviderInput) =>
    call(endpoints.setProvider, { params: { id: organizationId }, body }),
  );
}

/** Removes the provider: its people sign in with passwords again. Asks for a step-up. */
export function useRemoveIdentityProvider(organizationId: string) {
  return useViewMutation(organizationId, () => call(endpoints.removeProvider, { params: { id: organizationId } }));
}

/** Just-in-time members, enforcement and the break-glass admin. Asks for a step-up. */
export function useUpdateIdentitySettings(organizationId: string) {
  return useViewMutation(organizationId, (body: IdentitySettingsInput) =>
    call(endpoints.updateSettings, { params: { id: organizationId }, body }),
  );
}

/** Starts a test sign-in: the answer is the provider's address, where the browser goes next. */
export function useTestIdentityProvider(organizationId: string) {
  return useMutation({ mutationFn: () => call(endpoints.test, { params: { id: organizationId } }) });
}

export function useClaimDomain(organizationId: string) {
  return useViewMutation(
    organizationId,
    (body: ClaimDomainInput) => call(endpoints.claimDomain, { params: { id: organizationId }, body }),
    { claims: true },
  );
}

/**
 * Looks the claim's TXT record up now. A record not found is refused, and the server keeps
 * when it looked and what it found: the view is read again either way.
 */
export function useVerifyDomain(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (domainId: string) => call(endpoints.verifyDomain, { params: { id: organizationId, domainId } }),
    onSuccess: (view) => {
      queryClient.setQueryData(identityKeys.view(organizationId), view);
      // A claim that took effect leaves the house admins' review list.
      void invalidate(queryClient, 'domainClaimsChanged');
    },
    onError: () => invalidate(queryClient, 'domainVerifyRefused', organizationId),
  });
}

/** A house admin's approval of a claim without its TXT record. Asks for a step-up. */
export function useApproveDomain(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (domainId: string) => call(endpoints.approveDomain, { params: { id: organizationId, domainId } }),
    onSettled: () => invalidate(queryClient, 'domainApproved', organizationId),
  });
}

/**
 * A house admin's approval of a claim of the tree, from their review list. Asks for a step-up.
 * Refused or not, the list is read again: a refusal is often another organization's claim
 * having taken effect meanwhile, which the list then shows.
 */
export function useApprovePendingClaim() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (claim: Pick<PendingDomainClaim, 'id' | 'organization_id' | 'domain'>) =>
      call(endpoints.approveDomain, { params: { id: claim.organization_id, domainId: claim.id } }),
    onSettled: (_answer, _error, claim) => invalidate(queryClient, 'domainApproved', claim.organization_id),
  });
}

export function useRemoveDomain(organizationId: string) {
  return useViewMutation(organizationId, (domainId: string) => call(endpoints.removeDomain, { params: { id: organizationId, domainId } }), {
    claims: true,
  });
}

function useInvalidateTokens(organizationId: string) {
  const queryClient = useQueryClient();
  return () => invalidate(queryClient, 'scimTokensChanged', organizationId);
}

/** Makes a SCIM token; the answer holds its secret, never shown again. Asks for a step-up. */
export function useCreateScimToken(organizationId: string) {
  const invalidate = useInvalidateTokens(organizationId);
  return useMutation({
    mutationFn: (name: string) => call(tokens.create, { params: { id: organizationId }, body: { name } }),
    onSuccess: invalidate,
  });
}

/** A new secret for a token, answered once; the old one stops at once. Asks for a step-up. */
export function useRotateScimToken(organizationId: string) {
  const invalidate = useInvalidateTokens(organizationId);
  return useMutation({
    mutationFn: (tokenId: string) => call(tokens.rotate, { params: { id: organizationId, tokenId } }),
    onSuccess: invalidate,
  });
}

export function useRevokeScimToken(organizationId: string) {
  const invalidate = useInvalidateTokens(organizationId);
  return useMutation({
    mutationFn: (tokenId: string) => call(tokens.revoke, { params: { id: organizationId, tokenId } }),
    onSuccess: invalidate,
  });
}

/** How an e-mail signs in: through its organization's provider (and where to go), or with the password. */
export function discoverSignIn(email: string): Promise<SsoDiscoverResult> {
  return call(endpoints.discover, { body: { email } });
}
