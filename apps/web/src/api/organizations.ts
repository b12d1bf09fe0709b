import {
  organizationsEndpoints as endpoints,
  type CreateOrganizationInput,
  type ListOrganizationsQuery,
  type UpdateOrganizationInput,
} from '@console/domain';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api';
import { invalidate } from './invalidation';
import { organizationKeys } from './query-keys';

export const organizationQueries = {
  /** Children (default) or descendants of an organization in scope, filtered and paged by the server. */
  list: (query: ListOrganizationsQuery) =>
    queryOptions({
      queryKey: organizationKeys.list(query),
      queryFn: ({ signal }) => call(endpoints.list, { query }, { signal }),
      placeholderData: keepPreviousData,
    }),
  /** One organization in scope with its billing settings, child count and active agents. */
  detail: (id: string) =>
    queryOptions({
      queryKey: organizationKeys.detail(id),
      queryFn: async ({ signal }) => (await call(endpoints.get, { params: { id } }, { signal })).organization,
    }),
  /** One level of the hierarchy: the node with its counts and its first children by name (`undefined`: the caller's own). */
  tree: (id: string | undefined) =>
    queryOptions({
      queryKey: organizationKeys.tree(id),
      queryFn: ({ signal }) => call(endpoints.tree, { query: { organization_id: id } }, { signal }),
    }),
};

/** Creates a direct child of the caller's organization (initial_balance moves credits from it). */
export function useCreateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateOrganizationInput) => (await call(endpoints.create, { body })).organization,
    onSuccess: () => invalidate(queryClient, 'organizationCreated'),
  });
}

/** Name, description, status or disable_parent_invites of the caller's own organization or a direct child. */
export function useUpdateOrganization(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: UpdateOrganizationInput) => (await call(endpoints.update, { params: { id }, body })).organization,
    onSuccess: async (organization) => {
      queryClient.setQueryData(organizationKeys.detail(id), organization);
      await invalidate(queryClient, 'organizationUpdated');
    },
  });
}

/** Soft-deletes an empty child organization (admins of its parent); refusals answer 422 with the reason. */
export function useDeleteOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(endpoints.remove, { params: { id } }),
    onSuccess: (_result, id) => {
      // The deleted organization answers 404 from now on: drop it rather than refetch it.
      queryClient.removeQueries({ queryKey: organizationKeys.detail(id), exact: true });
      void invalidate(queryClient, 'organizationDeleted', id);
    },
  });
}
