import { usersEndpoints as endpoints, type ListUsersQuery, type UpdateMeInput, type UpdateUserInput } from '@console/domain';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api';
import { invalidate } from './invalidation';
import { userKeys } from './query-keys';

export const userQueries = {
  /** The signed-in user's profile with its organization. */
  me: () => queryOptions({ queryKey: userKeys.me, queryFn: ({ signal }) => call(endpoints.me, {}, { signal }) }),
  /** Users of an organization in scope, filtered and paged by the server. */
  list: (query: ListUsersQuery) =>
    queryOptions({
      queryKey: userKeys.list(query),
      queryFn: ({ signal }) => call(endpoints.list, { query }, { signal }),
      placeholderData: keepPreviousData,
    }),
  detail: (id: string) =>
    queryOptions({
      queryKey: userKeys.detail(id),
      queryFn: async ({ signal }) => (await call(endpoints.get, { params: { id } }, { signal })).user,
    }),
};

/** A person changed: every people view, and the dashboard's team counts by status. */
function useUsersMutation<T, R>(mutationFn: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => invalidate(queryClient, 'peopleChanged'),
  });
}

/** Your own names and locale. */
export const useUpdateMe = () => useUsersMutation((body: UpdateMeInput) => call(endpoints.updateMe, { body }));

/** Names, locale and (admins) the status of another user. */
export const useUpdateUser = () =>
  useUsersMutation(({ id, body }: { id: string; body: UpdateUserInput }) => call(endpoints.update, { params: { id }, body }));

/** A role of the user's organization type. */
export const useUpdateUserRole = () =>
  useUsersMutation(({ id, role }: { id: string; role: string }) => call(endpoints.changeRole, { params: { id }, body: { role } }));

/** Sets the user inactive. */
export const useDeactivateUser = () => useUsersMutation((id: string) => call(endpoints.deactivate, { params: { id } }));

/** Ends every session of a person (admins); answers how many ended. */
export const useEndUserSessions = () => useUsersMutation((id: string) => call(endpoints.endSessions, { params: { id } }));
/** An admin's reset of a person's second factors. */
export const useResetUserFactors = () => useUsersMutation((id: string) => call(endpoints.resetFactors, { params: { id } }));
