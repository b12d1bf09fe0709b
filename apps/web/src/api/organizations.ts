import {
  organizationsEndpoints as endpoints,
  type CreateOrganizationInput,
  type ListOrganizationsQuery,
  type UpdateOrganizationInput,
} from '@console/domain';
import { keepPreviousData, queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api';
import { dashboardKeys } from './dashboard';
import { userKeys } from './users';
import { billingKeys, creditKeys, organizationKeys } from './query-keys';

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

/**
 * What a new, changed or deleted organization changes beyond the organizations: the dashboard's
 * counts, the parent's capacity (the child's limit) and, when credits moved with it, the ledgers.
 */
function invalidateAroundOrganizations(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: dashboardKeys.all }),
    queryClient.invalidateQueries({ queryKey: billingKeys.capacities }),
    queryClient.invalidateQueries({ queryKey: creditKeys.all }),
  ]);
}

/** Creates a direct child of the caller's organization (initial_balance moves credits from it). */
export function useCreateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateOrganizationInput) => (await call(endpoints.create, { body })).organization,
    // Lists, trees and the parent's detail (its balance and child count) all changed, and the dashboard's counts and balance.
    onSuccess: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: organizationKeys.all }), invalidateAroundOrganizations(queryClient)]),
  });
}

/** Name, description, status or disable_parent_invites of the caller's own organization or a direct child. */
export function useUpdateOrganization(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: UpdateOrganizationInput) => (await call(endpoints.update, { params: { id }, body })).organization,
    onSuccess: async (organization) => {
      queryClient.setQueryData(organizationKeys.detail(id), organization);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: organizationKeys.all }),
        // The caller's own organization is also shown from the profile (dashboard title, shell).
        queryClient.invalidateQueries({ queryKey: userKeys.me }),
        // A name or status shows on the dashboard (children, counts by status) and in capacity lists.
        invalidateAroundOrganizations(queryClient),
      ]);
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
      const deleted = organizationKeys.detail(id);
      queryClient.removeQueries({ queryKey: deleted, exact: true });
      void queryClient.invalidateQueries({
        queryKey: organizationKeys.all,
        predicate: (query) => JSON.stringify(query.queryKey) !== JSON.stringify(deleted),
      });
      void invalidateAroundOrganizations(queryClient);
    },
  });
}
