import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '@/lib/api';
import { organizationQueryKey } from './get-organization';

/** Soft-deletes an empty child organization (admins of its parent); refusals answer 422 with the reason. */
export function deleteOrganization(id: string): Promise<void> {
  return request(`/api/organizations/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useDeleteOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteOrganization,
    onSuccess: (_result, id) => {
      // The deleted organization answers 404 from now on: drop it rather than refetch it.
      const deleted = organizationQueryKey(id);
      queryClient.removeQueries({ queryKey: deleted, exact: true });
      void queryClient.invalidateQueries({
        queryKey: ['organizations'],
        predicate: (query) => JSON.stringify(query.queryKey) !== JSON.stringify(deleted),
      });
    },
  });
}
