import { TIMING } from '@console/domain';
import { QueryClient } from '@tanstack/react-query';

/** The application's cache settings (spec 1 section 9, "the later application setting"). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: 1,
        refetchOnWindowFocus: false,
        staleTime: TIMING.queryStaleMs,
        gcTime: TIMING.queryGcMs,
      },
      mutations: { retry: 0 },
    },
  });
}
