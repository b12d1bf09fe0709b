import { MESSAGES as DOMAIN_MESSAGES } from '@console/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
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

  // The spec lists the classes in the order network, jwt, auth; a message that carries
  // keywords of several classes falls in the first listed one.
  it.each([
    ['Failed to fetch token', 'network'],
    ['Invalid JWT', 'jwt'],
    ['Invalid token', 'jwt'],
    ['network error while checking password', 'network'],
  ] as const)('%j (keywords of several classes) is class %s', (message, kind) => {
    expect(classifyLoginError(message)).toBe(kind);
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

describe('spec wording', () => {
  it.each([
    ['auth.signInFailed', MESSAGES.auth.signInFailed, 'Failed to sign in'],
    ['auth.signOutFailed', MESSAGES.auth.signOutFailed, 'Failed to sign out.'],
    ['auth.loginSuccessful', MESSAGES.auth.loginSuccessful, 'Login successful'],
    ['auth.signedOutTitle', MESSAGES.auth.signedOutTitle, 'Signed out'],
    ['auth.signedOutBody', MESSAGES.auth.signedOutBody, 'You were signed out. Sign in to continue.'],
    ['auth.signOutErrorTitle', MESSAGES.auth.signOutErrorTitle, 'Error'],
    ['auth.signOutErrorBody', MESSAGES.auth.signOutErrorBody, 'There was an error signing out.'],
    ['auth.noAccountNote', MESSAGES.auth.noAccountNote, "Don't have an account? Contact your administrator for an invitation."],
    ['auth.resetSentTitle', MESSAGES.auth.resetSentTitle, 'Reset email sent'],
    ['auth.authenticationRequired', MESSAGES.auth.authenticationRequired, 'Authentication Required'],
    ['auth.accessDenied', MESSAGES.auth.accessDenied, 'Access Denied'],
    ['auth.userRecordNotFound', MESSAGES.auth.userRecordNotFound, 'User record not found'],
    ['auth.userHasNoOrganization', MESSAGES.auth.userHasNoOrganization, 'User has no organization'],
    // invitation toasts at login
    ['invitationToasts.processing', MESSAGES.invitationToasts.processing, 'Processing invitation...'],
    ['invitationToasts.pending', MESSAGES.invitationToasts.pending, 'Invitation pending'],
    ['invitationToasts.accepted', MESSAGES.invitationToasts.accepted, 'Invitation accepted'],
    ['invitationToasts.failed', MESSAGES.invitationToasts.failed, 'Failed to accept invitation'],
    ['organizations.permissionDenied', MESSAGES.organizations.permissionDenied, 'Permission Denied'],
    ['organizations.failedToLoad', MESSAGES.organizations.failedToLoad, 'Failed to load organizations'],
    ['organizations.failedToLoadDetails', MESSAGES.organizations.failedToLoadDetails, 'Failed to load organization details'],
    ['organizations.failedToCreate', MESSAGES.organizations.failedToCreate, 'Failed to create organization'],
    ['organizations.selectOrganization', MESSAGES.organizations.selectOrganization, 'Please select an organization to view the dashboard.'],
    // shell
    ['shell.menuTitle', MESSAGES.shell.menuTitle, 'Menu'],
    ['shell.menuDescription', MESSAGES.shell.menuDescription, 'Navigate through the application'],
    ['shell.nav.dashboard', MESSAGES.shell.nav.dashboard, 'Dashboard'],
    ['shell.nav.organizations', MESSAGES.shell.nav.organizations, 'Organizations'],
    ['shell.nav.team', MESSAGES.shell.nav.team, 'Team'],
    ['shell.nav.resources', MESSAGES.shell.nav.resources, 'Resources'],
    ['shell.nav.creditLedger', MESSAGES.shell.nav.creditLedger, 'Credit Ledger'],
    ['shell.nav.settings', MESSAGES.shell.nav.settings, 'Settings'],
    ['shell.profileFallback', MESSAGES.shell.profileFallback, 'Profile'],
    ['shell.avatarFallback', MESSAGES.shell.avatarFallback, 'AV'],
    ['shell.settings', MESSAGES.shell.settings, 'Settings'],
    ['shell.debug', MESSAGES.shell.debug, 'Debug'],
    ['shell.logOut', MESSAGES.shell.logOut, 'Log out'],
    ['shell.darkMode', MESSAGES.shell.darkMode, 'Dark mode'],
    ['shell.lightMode', MESSAGES.shell.lightMode, 'Light mode'],
    ['welcome.documentation', MESSAGES.welcome.documentation, 'Documentation'],
    ['welcome.getStarted', MESSAGES.welcome.getStarted, 'Get Started'],
    ['authPages.sendResetLink', MESSAGES.authPages.sendResetLink, 'Send Reset Link'],
    ['authPages.backToLogin', MESSAGES.authPages.backToLogin, 'Back to login'],
    ['authPages.invalidLinkTitle', MESSAGES.authPages.invalidLinkTitle, 'Invalid Link'],
    ['authPages.requestNewResetLink', MESSAGES.authPages.requestNewResetLink, 'Request New Reset Link'],
  ])('%s', (_key, actual, expected) => {
    expect(actual).toBe(expected);
  });
});

describe('the console reads the domain through its wording', () => {
  it("every group and key of the domain's messages is there unchanged", () => {
    for (const [group, keys] of Object.entries(DOMAIN_MESSAGES)) {
      const merged = (MESSAGES as Record<string, Record<string, unknown>>)[group];
      for (const [key, value] of Object.entries(keys)) expect(merged?.[key], `${group}.${key}`).toBe(value);
    }
  });
});
