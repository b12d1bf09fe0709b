import { TIMING } from '@console/domain';
import { ApiError } from './api';

/**
 * Load failures retry up to 3 times 2 s apart, except permission and not-found answers,
 * which show at once (spec 1 section 8, spec 2 section 4).
 */
export const loadRetry = {
  retry: (count: number, error: Error) =>
    !(error instanceof ApiError && (error.status === 403 || error.status === 404)) && count < TIMING.loadRetryAttempts,
  retryDelay: TIMING.loadRetryDelayMs,
};
