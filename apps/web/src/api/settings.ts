import { settingsEndpoints as endpoints, TIMING, type UpdateGlobalSettingsInput } from '@console/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api';
import { invalidate } from './invalidation';
import { settingsKeys } from './query-keys';

export const settingsQueries = {
  /** The documentation, billing portal and community links (signed in). */
  global: () =>
    queryOptions({
      queryKey: settingsKeys.global,
      queryFn: ({ signal }) => call(endpoints.get, {}, { signal }),
      staleTime: TIMING.longStaleMs,
    }),
  /** The documentation link, for the public Welcome page. */
  public: () =>
    queryOptions({
      queryKey: settingsKeys.public,
      queryFn: ({ signal }) => call(endpoints.getPublic, {}, { signal }),
      staleTime: TIMING.longStaleMs,
    }),
};

/** Replaces the global settings (house admins). */
export function useUpdateGlobalSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateGlobalSettingsInput) => call(endpoints.update, { body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(settingsKeys.global, saved);
      void invalidate(queryClient, 'globalSettingsSaved');
    },
  });
}
