import { TIMING } from '@console/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api';
import { createQueryClient } from './query-client';

const failure = (status: number) => new ApiError({ status, code: 'x', message: `answered ${status}` });

afterEach(() => {
  vi.useRealTimers();
});

/** Fetches once through the application's client with a load that always fails; resolves to how many times it was asked. */
async function attemptsUntilFailure(error: Error): Promise<number> {
  vi.useFakeTimers();
  const client = createQueryClient();
  const load = vi.fn(async () => {
    throw error;
  });
  const result = client
    .fetchQuery({ queryKey: ['probe'], queryFn: load, retry: client.getDefaultOptions().queries!.retry })
    .catch((caught: unknown) => caught);
  await vi.advanceTimersByTimeAsync(TIMING.loadRetryDelayMs * (TIMING.loadRetryAttempts + 1));
  expect(await result).toBe(error);
  return load.mock.calls.length;
}

describe('load retries', () => {
  it.each([400, 401, 403, 404, 409, 422, 429])('an answer %i is shown at once: one request only', async (status) => {
    expect(await attemptsUntilFailure(failure(status))).toBe(1);
  });

  it.each([500, 502, 503])(`an answer %i is asked again ${TIMING.loadRetryAttempts} times, a delay apart`, async (status) => {
    expect(await attemptsUntilFailure(failure(status))).toBe(1 + TIMING.loadRetryAttempts);
  });

  it('a failure with no answer (the network) is asked again too', async () => {
    expect(await attemptsUntilFailure(new TypeError('Failed to fetch'))).toBe(1 + TIMING.loadRetryAttempts);
  });
});
