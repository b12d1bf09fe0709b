import type { CreateOrganizationInput, OrganizationDetail } from '@console/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '@/lib/api';

/** Creates a direct child of the caller's organization (initial_balance moves credits from it). */
export async function createOrganization(input: CreateOrganizationInput): Promise<OrganizationDetail> {
  const { organization } = await request<{ organization: OrganizationDetail }>('/api/organizations', {
    method: 'POST',
    body: input,
  });
  return organization;
}

export function useCreateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOrganization,
    // Lists, trees and the parent's detail (its balance and child count) all changed.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['organizations'] }),
  });
}
