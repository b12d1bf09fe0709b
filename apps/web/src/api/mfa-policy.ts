import { mfaPolicyEndpoints as endpoints, type UpdateMfaPolicyInput } from '@console/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api';
import { mfaPolicyKeys } from './query-keys';

export const mfaPolicyQueries = {
  /** An organization's second-factor policy, what it inherits and who of its people is covered. */
  of: (organizationId: string) =>
    queryOptions({
      queryKey: mfaPolicyKeys.of(organizationId),
      queryFn: ({ signal }) => call(endpoints.get, { params: { id: organizationId } }, { signal }),
    }),
};

export function useUpdateMfaPolicy(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateMfaPolicyInput) => call(endpoints.update, { params: { id: organizationId }, body }),
    onSuccess: (view) => queryClient.setQueryData(mfaPolicyKeys.of(organizationId), view),
  });
}
