import { authEndpoints, healthEndpoints, usersEndpoints } from '@console/domain';
import { describe, expect, it } from 'vitest';
import { apiError, json, makeSession, mockApi } from '@/test/helpers';
import { ApiError, call } from './api';
import { sessionStore } from './session-store';
import { MESSAGES } from '@/lib/wording';

describe('api client', () => {
  it('sends the bearer token of the session', async () => {
    const session = makeSession();
    sessionStore.set(session);
    const api = mockApi({ 'GET /api/users/me': () => json(200, session.user) });
    await expect(call(usersEndpoints.me)).resolves.toEqual(session.user);
    expect(api.calls[0]?.headers.get('Authorization')).toBe(`Bearer ${session.access_token}`);
  });

  it('turns the error shape into an ApiError with fields and Retry-After', async () => {
    sessionStore.set(null);
    mockApi({
      'POST /api/auth/recover': () =>
        json(429, { error: { code: 'rate_limited', message: 'Slow down', fields: { email: 'busy' } } }, { 'Retry-After': '30' }),
    });
    const error = await call(authEndpoints.recover, { body: { email: 'a@example.test' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 429,
      code: 'rate_limited',
      message: 'Slow down',
      fields: { email: 'busy' },
      retryAfter: 30,
    });
  });

  // That the sign-in classes its message as a network failure is held in features/auth/wording.test.ts.
  it('reports an unreachable server as status 0', async () => {
    sessionStore.set(null);
    mockApi({
      'GET /api/health': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const error = await call(healthEndpoints.check).catch((e: unknown) => e);
    if (!(error instanceof ApiError)) throw new Error('expected an ApiError');
    expect(error.status).toBe(0);
  });

  it('refuses an answer that does not match the endpoint contract', async () => {
    sessionStore.set(makeSession());
    mockApi({ 'GET /api/users/me': () => json(200, { id: 'not a profile' }) });
    await expect(call(usersEndpoints.me)).rejects.toMatchObject({
      status: 200,
      code: 'invalid_response',
      message: MESSAGES.generic.unexpected,
    });
  });

  it('refreshes once on 401 and retries the call with the new token', async () => {
    const old = makeSession({ tokenId: 'old' });
    const fresh = makeSession({ tokenId: 'fresh' });
    sessionStore.set(old);
    const api = mockApi({
      'GET /api/users/me': ({ headers }) =>
        headers.get('Authorization') === `Bearer ${fresh.access_token}`
          ? json(200, fresh.user)
          : apiError(401, 'unauthorized', 'jwt expired'),
      'POST /api/auth/refresh': () => json(200, fresh),
    });
    await expect(call(usersEndpoints.me)).resolves.toEqual(fresh.user);
    expect(api.fetch).toHaveBeenCalledTimes(3);
    expect(sessionStore.get().session).toEqual(fresh);
  });

  it('shares one refresh between concurrent 401s', async () => {
    const old = makeSession({ tokenId: 'old' });
    const fresh = makeSession({ tokenId: 'fresh' });
    sessionStore.set(old);
    let refreshes = 0;
    mockApi({
      'GET /api/users/me': ({ headers }) =>
        headers.get('Authorization') === `Bearer ${fresh.access_token}`
          ? json(200, fresh.user)
          : apiError(401, 'unauthorized', 'jwt expired'),
      'POST /api/auth/refresh': async () => {
        refreshes += 1;
        await new Promise((resolve) => setTimeout(resolve, 10));
        return json(200, fresh);
      },
    });
    await Promise.all([call(usersEndpoints.me), call(usersEndpoints.me), call(usersEndpoints.me)]);
    expect(refreshes).toBe(1);
  });

  it('signs out when the refresh is refused, and surfaces the original 401', async () => {
    sessionStore.set(makeSession());
    mockApi({
      'GET /api/users/me': () => apiError(401, 'unauthorized', 'jwt expired'),
      'POST /api/auth/refresh': () => apiError(401, 'unauthorized', 'no session'),
    });
    await expect(call(usersEndpoints.me)).rejects.toMatchObject({ status: 401 });
    expect(sessionStore.get().status).toBe('signed-out');
  });
});
