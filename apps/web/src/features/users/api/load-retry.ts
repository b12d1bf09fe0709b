import { TIMING } from '@console/domain';
import { ApiError } from '@/lib/api';

/**
 * Load failures of the users pages retry up to 3 times 2 s apart, except permission and
 * not-found answers, which show at once (spec 2 section 4).
 */
export const loadRetry = {
  retry: (count: number, error: Error) =>
    !(error instanceof ApiError && (error.status === 403 || error.status === 404)) && count < TIMING.loadRetryAttempts,
  retryDelay: TIMING.loadRetryDelayMs,
};

/** A query string of the defined, non-empty values, in the order given. */
export function queryString(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
