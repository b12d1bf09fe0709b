import { usageEndpoints as endpoints, type UsageEventsExportQuery } from '@console/domain';
import { infiniteQueryOptions, useMutation } from '@tanstack/react-query';
import { call, download } from '@/lib/api';
import { saveFile } from '@/lib/save-file';
import { usageEventKeys } from './query-keys';

/** How many events a page of the console shows. */
const PAGE = 50;

export const usageEventQueries = {
  /** Stored usage events of an organization, newest occurrence first, a page at a time; the next page follows `next_cursor`. */
  list: (filters: UsageEventsExportQuery) =>
    infiniteQueryOptions({
      queryKey: usageEventKeys.list(filters),
      queryFn: ({ pageParam, signal }) => call(endpoints.listEvents, { query: { ...filters, cursor: pageParam, limit: PAGE } }, { signal }),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last) => last.next_cursor ?? undefined,
    }),
};

/** Downloads the CSV of every event matching the filters; resolves to the file name. */
export function useExportUsageEvents() {
  return useMutation({
    mutationFn: async (filters: UsageEventsExportQuery) => {
      const { blob, filename } = await download(endpoints.exportEvents, { query: filters }, { headers: { Accept: 'text/csv' } });
      return saveFile(blob, filename ?? 'usage-events.csv');
    },
  });
}
