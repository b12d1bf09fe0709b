import { TIMING } from '@console/domain';
import { ApiError } from '@/lib/api';

/** Load failures retry 3 times 2 s apart; permission errors and missing records do not (spec 2 section 4). */
export const loadRetry = {
  retry: (count: number, error: Error) =>
    !(error instanceof ApiError && (error.status === 403 || error.status === 404)) && count < TIMING.loadRetryAttempts,
  retryDelay: TIMING.loadRetryDelayMs,
};
