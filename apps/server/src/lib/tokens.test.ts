import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenService } from './tokens.ts';

const SECRET = 'a test secret of at least thirty-two characters';
const CLAIMS = {
  userId: '11111111-1111-4111-8111-111111111111',
  sessionId: '22222222-2222-4222-8222-222222222222',
  email: 'someone@example.test',
  role: 'house_admin',
  orgId: '33333333-3333-4333-8333-333333333333',
  orgType: 'house',
  orgName: 'House',
};

describe('access tokens', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('verifies a token again from memory, with the same answer', async () => {
    const tokens = createTokenService(SECRET);
    const { token } = await tokens.sign(CLAIMS);
    const first = await tokens.verify(token);
    expect(first).toEqual({ userId: CLAIMS.userId, sessionId: CLAIMS.sessionId });
    expect(await tokens.verify(token)).toEqual(first);
  });

  it('a remembered token still expires on time', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const tokens = createTokenService(SECRET, 60);
    const { token } = await tokens.sign(CLAIMS);
    await tokens.verify(token);
    vi.setSystemTime(new Date('2026-01-01T00:00:59Z'));
    await expect(tokens.verify(token)).resolves.toMatchObject({ userId: CLAIMS.userId });
    vi.setSystemTime(new Date('2026-01-01T00:01:00Z'));
    await expect(tokens.verify(token)).rejects.toMatchObject({ code: 'token_expired' });
    await expect(tokens.verify(token)).rejects.toMatchObject({ code: 'token_expired' });
  });

  it('remembering a token lets no altered or foreign token through', async () => {
    const tokens = createTokenService(SECRET);
    const { token } = await tokens.sign(CLAIMS);
    await tokens.verify(token);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const flipped = signature.slice(0, -2) + (signature.at(-2) === 'A' ? 'B' : 'A') + signature.at(-1);
    await expect(tokens.verify(`${header}.${payload}.${flipped}`)).rejects.toMatchObject({ code: 'invalid_token' });
    const foreign = await createTokenService('another secret of at least thirty-two characters').sign(CLAIMS);
    await expect(tokens.verify(foreign.token)).rejects.toMatchObject({ code: 'invalid_token' });
  });
});
