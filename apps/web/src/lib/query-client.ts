import { TIMING } from '@console/domain';
import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api';

/** An answer in the 4xx range (refused, not found, invalid): asking again gives the same answer. */
const isClientError = (error: Error) => error instanceof ApiError && error.status >= 400 && error.status < 500;

/**
 * The application's cache settings. A failed load retries a few times, a fixed delay apart
 * (TIMING.loadRetryAttempts, TIMING.loadRetryDelayMs); an answer in the 4xx range shows at once.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failureCount, error) => failureCount < TIMING.loadRetryAttempts && !isClientError(error),
        retryDelay: TIMING.loadRetryDelayMs,
        refetchOnWindowFocus: false,
        staleTime: TIMING.queryStaleMs,
        gcTime: TIMING.queryGcMs,
      },
      mutations: { retry: 0 },
    },
  });
}
