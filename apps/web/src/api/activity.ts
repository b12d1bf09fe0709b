import { activityEndpoints as endpoints, type ActivityExportQuery } from '@console/domain';
import { infiniteQueryOptions, keepPreviousData, useMutation } from '@tanstack/react-query';
import { call, download } from '@/lib/api';
import { saveFile } from '@/lib/save-file';
import { activityKeys } from './query-keys';

export const ACTIVITY_PAGE_SIZE = 50;

export const activityQueries = {
  /** The audit events in scope, newest first, a page at a time; the next page follows `next_cursor`. */
  list: (filters: ActivityExportQuery) =>
    infiniteQueryOptions({
      queryKey: activityKeys.list(filters),
      queryFn: ({ pageParam, signal }) =>
        call(endpoints.list, { query: { ...filters, cursor: pageParam, limit: ACTIVITY_PAGE_SIZE } }, { signal }),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last) => last.next_cursor ?? undefined,
      placeholderData: keepPreviousData,
    }),
};

/** Downloads the CSV of every event matching the filters; resolves to the file name. */
export function useExportActivity() {
  return useMutation({
    mutationFn: async (filters: ActivityExportQuery) => {
      const { blob, filename } = await download(endpoints.export, { query: filters }, { headers: { Accept: 'text/csv' } });
      return saveFile(blob, filename ?? 'activity.csv');
    },
  });
}
