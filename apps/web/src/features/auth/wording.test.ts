import { healthEndpoints } from '@console/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError, call } from '@/lib/api';
import { sessionStore } from '@/lib/session-store';
import { mockApi } from '@/test/helpers';
import { MESSAGES, classifyLoginError, type LoginErrorClass } from './wording';

describe('classifyLoginError (by keyword in the message)', () => {
  const KEYWORDS: Record<Exclude<LoginErrorClass, 'unknown'>, string[]> = {
    network: ['network', 'fetch', 'connection', 'timeout'],
    jwt: ['jwt', 'token', 'claim'],
    auth: ['invalid', 'password', 'email', 'credentials'],
  };

  const keywordCases = (Object.entries(KEYWORDS) as [LoginErrorClass, string[]][]).flatMap(([kind, words]) =>
    words.map((word) => ({ kind, word })),
  );

  it.each(keywordCases)('the bare keyword "$word" is class $kind', ({ kind, word }) => {
    expect(classifyLoginError(word)).toBe(kind);
  });

  it.each(keywordCases)('"$word" upper-cased inside a sentence is still class $kind', ({ kind, word }) => {
    expect(classifyLoginError(`Request failed: ${word.toUpperCase()} problem occurred`)).toBe(kind);
  });

  it.each([
    ['TypeError: Failed to fetch', 'network'],
    ['NetworkError when attempting to fetch resource.', 'network'],
    ['Connection refused', 'network'],
    ['Request Timeout after 30000ms', 'network'],
    ['JWT expired', 'jwt'],
    ['invalid claim: missing sub claim', 'jwt'],
    ['Refresh Token Not Found', 'jwt'],
    ['Invalid login credentials', 'auth'],
    ['Email not confirmed', 'auth'],
    ['Password is wrong', 'auth'],
  ] as const)('%j is class %s', (message, kind) => {
    expect(classifyLoginError(message)).toBe(kind);
  });

  // The classes are tried in the order network, jwt, auth: a message that carries keywords
  // of several classes falls in the first of them.
  it.each([
    ['Failed to fetch token', 'network'],
    ['Invalid JWT', 'jwt'],
    ['Invalid token', 'jwt'],
    ['network error while checking password', 'network'],
  ] as const)('%j (keywords of several classes) is class %s', (message, kind) => {
    expect(classifyLoginError(message)).toBe(kind);
  });

  it('the error call() reports for an unreachable server is class network', async () => {
    sessionStore.set(null);
    mockApi({
      'GET /api/health': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const error = await call(healthEndpoints.check).catch((e: unknown) => e);
    if (!(error instanceof ApiError)) throw new Error('expected an ApiError');
    expect(classifyLoginError(error.message)).toBe('network');
  });

  it.each(['Something broke', 'Internal Server Error', 'User is banned', '', '500'])('%j is unknown', (message) => {
    expect(classifyLoginError(message)).toBe('unknown');
  });

  it('a message without any keyword is unknown; one with a keyword is not', () => {
    const all = Object.values(KEYWORDS).flat();
    fc.assert(
      fc.property(fc.string(), fc.constantFrom(...all), (text, keyword) => {
        const lower = text.toLowerCase();
        if (!all.some((k) => lower.includes(k))) expect(classifyLoginError(text)).toBe('unknown');
        expect(classifyLoginError(text + keyword + text)).not.toBe('unknown');
      }),
    );
  });
});

describe('login error texts', () => {
  it.each([
    ['network', 'Connection Error', 'Network connection issue. Please check your internet connection and try again.'],
    [
      'jwt',
      'Authentication Token Error',
      'Authentication token issue. This may be due to recent system updates. Please try again or contact support if the problem persists.',
    ],
    ['auth', 'Login Failed', 'Invalid email or password. Please check your credentials and try again.'],
    ['unknown', undefined, 'An unexpected error occurred. Please try again.'],
  ] as const)('class %s: title %j, message %j', (kind, title, message) => {
    const texts = MESSAGES.loginErrors[kind];
    if (title !== undefined) expect(texts.title).toBe(title);
    expect(texts.message).toBe(message);
  });

  it('each class has its own troubleshooting line', () => {
    const lines = (['network', 'jwt', 'auth', 'unknown'] as const).map((k) => MESSAGES.loginErrors[k].troubleshooting);
    for (const line of lines) expect(line.trim().length).toBeGreaterThan(0);
    expect(new Set(lines).size).toBe(4);
  });

  it('the jwt class carries a System Update Notice', () => {
    expect(MESSAGES.loginErrors.jwt.systemUpdateNotice).toMatch(/System Update Notice/);
  });

  it('the invalid-credentials text is the auth class text', () => {
    expect(MESSAGES.auth.invalidCredentials).toBe('Invalid email or password. Please check your credentials and try again.');
  });

  it('every classification result has texts', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(MESSAGES.loginErrors[classifyLoginError(s)].message.length).toBeGreaterThan(0);
      }),
    );
  });
});

describe("the sign-in's wording, to the letter", () => {
  it.each([
    ['auth.signInFailed', MESSAGES.auth.signInFailed, 'Failed to sign in'],
    ['auth.signOutFailed', MESSAGES.auth.signOutFailed, 'Failed to sign out.'],
    ['auth.loginSuccessful', MESSAGES.auth.loginSuccessful, 'Login successful'],
    ['auth.noAccountNote', MESSAGES.auth.noAccountNote, "Don't have an account? Contact your administrator for an invitation."],
    ['auth.resetSentTitle', MESSAGES.auth.resetSentTitle, 'Reset email sent'],
    ['auth.authenticationRequired', MESSAGES.auth.authenticationRequired, 'Authentication Required'],
    ['auth.userRecordNotFound', MESSAGES.auth.userRecordNotFound, 'User record not found'],
    ['auth.userHasNoOrganization', MESSAGES.auth.userHasNoOrganization, 'User has no organization'],
    ['invitationToasts.pending', MESSAGES.invitationToasts.pending, 'Invitation pending'],
    ['authPages.sendResetLink', MESSAGES.authPages.sendResetLink, 'Send Reset Link'],
    ['authPages.backToLogin', MESSAGES.authPages.backToLogin, 'Back to login'],
    ['authPages.invalidLinkTitle', MESSAGES.authPages.invalidLinkTitle, 'Invalid Link'],
    ['authPages.requestNewResetLink', MESSAGES.authPages.requestNewResetLink, 'Request New Reset Link'],
  ])('%s', (_key, actual, expected) => {
    expect(actual).toBe(expected);
  });
});
