import { describe, expect, it } from 'vitest';
import {
  AGENT_LIMIT,
  CREDITS,
  INVITATION_RETRY,
  invitationRetryDelayMs,
  isFirstLoginWindow,
  LIMITS,
  PAGING,
  SESSION,
  signInAccountWaitSeconds,
  TIMING,
  UI,
} from './constants.ts';

/** Business constants and limits of the console. */
describe('limits', () => {
  it.each([
    ['organization name minimum', LIMITS.orgNameMin, 2],
    ['organization name maximum', LIMITS.orgNameMax, 100],
    ['description maximum', LIMITS.orgDescriptionMax, 500],
    ['password minimum', LIMITS.passwordMin, 8],
    ['person name minimum (first/last name at least 2)', LIMITS.personNameMin, 2],
  ])('%s is %d', (_label, actual, expected) => {
    expect(actual).toBe(expected);
  });

  it('the upper bounds are above the minimums', () => {
    expect(LIMITS.passwordMax).toBeGreaterThan(LIMITS.passwordMin);
    expect(LIMITS.personNameMax).toBeGreaterThan(LIMITS.personNameMin);
    expect(LIMITS.emailMax).toBeGreaterThanOrEqual(254);
  });
});

describe('paging', () => {
  it.each([
    ['default page', PAGING.defaultPage, 1],
    ['organization page size', PAGING.orgPageSize, 50],
    ['users page size', PAGING.usersPageSize, 10],
    ['credit ledger page limit', PAGING.ledgerPageSize, 20],
    ['recent transactions fetched', PAGING.recentTransactionsFetch, 5],
    ['recent transactions shown', PAGING.recentTransactionsShown, 3],
    ['team card members', PAGING.teamCardMembers, 5],
    ['skeleton rows', PAGING.skeletonRows, 5],
    ['dashboard recently created', PAGING.dashboardRecentOrgs, 5],
    ['dashboard usage chart days', PAGING.dashboardHistoryDays, 7],
  ])('%s is %d', (_label, actual, expected) => {
    expect(actual).toBe(expected);
  });

  it('page size choices are 10, 25, 50, 100 and include the default', () => {
    expect([...PAGING.orgPageSizes]).toEqual([10, 25, 50, 100]);
    expect(PAGING.orgPageSizes).toContain(PAGING.orgPageSize);
  });
});

describe('timing', () => {
  it.each([
    ['login auto-retry after a network error', TIMING.loginNetworkRetryMs, 2000],
    ['load retry attempts', TIMING.loadRetryAttempts, 3],
    ['load retry spacing', TIMING.loadRetryDelayMs, 2000],
    ['query stale time', TIMING.queryStaleMs, 60_000],
    ['long stale time (dashboard and organization queries)', TIMING.longStaleMs, 300_000],
    ['query garbage collection', TIMING.queryGcMs, 300_000],
    ['toast duration', TIMING.toastDurationMs, 4000],
    ['invitation toasts', TIMING.invitationToastMs, 5000],
    ['redirect after acceptance', TIMING.acceptanceRedirectMs, 3000],
    ['reload after agent limit save', TIMING.agentLimitReloadMs, 1500],
    ['tooltip delay', TIMING.tooltipDelayMs, 700],
    ['tooltip skip delay', TIMING.tooltipSkipDelayMs, 300],
  ])('%s is %d', (_label, actual, expected) => {
    expect(actual).toBe(expected);
  });
});

describe('session secrets', () => {
  it('access tokens live 15 minutes, reset tokens 1 hour, invitations 7 days', () => {
    expect(SESSION.accessTokenTtlSeconds).toBe(15 * 60);
    expect(SESSION.resetTokenTtlSeconds).toBe(60 * 60);
    expect(SESSION.invitationTtlSeconds).toBe(7 * 24 * 60 * 60);
  });

  it('the refresh token outlives the access token', () => {
    expect(SESSION.refreshTokenTtlSeconds).toBeGreaterThan(SESSION.accessTokenTtlSeconds);
  });
});

describe('credits and agent limits', () => {
  it('low balance below 100; allocation step and minimum 0.01', () => {
    expect(CREDITS.lowBalanceThreshold).toBe(100);
    expect(CREDITS.step).toBe(0.01);
    expect(CREDITS.minAmount).toBe(0.01);
  });

  it('agent limit warning 75 %, critical 90 %, capacity destructive above 80 %', () => {
    expect(AGENT_LIMIT.warningPercent).toBe(75);
    expect(AGENT_LIMIT.criticalPercent).toBe(90);
    expect(AGENT_LIMIT.capacityDestructivePercent).toBe(80);
    expect(AGENT_LIMIT.nearPercent).toBe(80);
  });
});

describe('UI', () => {
  it.each([
    ['narrow breakpoint', UI.narrowBreakpointPx, 768],
    ['theme storage key', UI.themeStorageKey, 'vite-ui-theme'],
    ['sidebar storage key', UI.sidebarStorageKey, 'sidebar-state'],
    ['default theme', UI.defaultTheme, 'light'],
  ] as const)('%s is %j', (_label, actual, expected) => {
    expect(actual).toBe(expected);
  });
});

describe('guesses at one account', () => {
  it('ten wrong passwords in a row are free, then each attempt waits 1, 2, 4… seconds after the last, at most 15 minutes', () => {
    expect([0, 9, 10, 11, 12, 19, 20, 1000].map((failures) => signInAccountWaitSeconds(failures))).toEqual([0, 0, 1, 2, 4, 512, 900, 900]);
    const limits = { signInAccountFailures: 2, signInAccountDelayIntervalSeconds: 3, signInAccountMaxDelayIntervalSeconds: 10 };
    expect([1, 2, 3, 4, 5].map((failures) => signInAccountWaitSeconds(failures, limits))).toEqual([0, 3, 6, 10, 10]);
  });
});

describe('invitation list retries', () => {
  it('at most 8 automatic attempts, manual retry up to 5, Refresh Page after 3, slow after 5', () => {
    expect(INVITATION_RETRY).toMatchObject({ maxAttempts: 8, maxManual: 5, refreshAfter: 3, slowAfter: 5, firstLoginWindowMs: 600_000 });
  });

  it('waits 2000 ms × 1.5^n, or 100 ms × 2^n for a first login, never above 10 s', () => {
    expect([0, 1, 2, 3, 4, 5].map((n) => invitationRetryDelayMs(n, false))).toEqual([2000, 3000, 4500, 6750, 10_000, 10_000]);
    expect([0, 1, 2, 3, 6, 7, 20].map((n) => invitationRetryDelayMs(n, true))).toEqual([100, 200, 400, 800, 6400, 10_000, 10_000]);
  });

  it('a first login is an account created less than 10 minutes ago', () => {
    const now = Date.parse('2025-06-01T12:00:00Z');
    expect(isFirstLoginWindow('2025-06-01T11:50:01Z', now)).toBe(true);
    expect(isFirstLoginWindow('2025-06-01T12:00:00Z', now)).toBe(true);
    expect(isFirstLoginWindow('2025-06-01T11:50:00Z', now)).toBe(false);
    expect(isFirstLoginWindow('2025-06-01T12:00:01Z', now)).toBe(false);
    expect(isFirstLoginWindow(null, now)).toBe(false);
    expect(isFirstLoginWindow('not a date', now)).toBe(false);
  });
});
