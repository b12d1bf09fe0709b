import type { OrganizationDetail, UpdateOrganizationInput } from '@console/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '@/lib/api';
import { meQueryKey } from '@/features/users/api/get-me';
import { organizationQueryKey } from './get-organization';

/** Name, description, status or disable_parent_invites of the caller's own organization or a direct child. */
export async function updateOrganization(id: string, input: UpdateOrganizationInput): Promise<OrganizationDetail> {
  const { organization } = await request<{ organization: OrganizationDetail }>(
    `/api/organizations/${encodeURIComponent(id)}`,
    { method: 'PATCH', body: input },
  );
  return organization;
}

export function useUpdateOrganization(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateOrganizationInput) => updateOrganization(id, input),
    onSuccess: async (organization) => {
      queryClient.setQueryData(organizationQueryKey(id), organization);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['organizations'] }),
        // The caller's own organization is also shown from the profile (dashboard title, shell).
        queryClient.invalidateQueries({ queryKey: meQueryKey }),
      ]);
    },
  });
}
