import { describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '@console/domain';
import { scaledRateLimits } from './rate-limit-settings.ts';

describe('RATE_LIMIT_FACTOR', () => {
  it('multiplies every count, divides the least interval between two mails, and keeps the windows', () => {
    expect(scaledRateLimits(1)).toEqual(RATE_LIMITS);
    const scaled = scaledRateLimits(100);
    expect(scaled.invitationsPerInviter).toBe(RATE_LIMITS.invitationsPerInviter * 100);
    expect(scaled.invitationsPerRecipient).toBe(RATE_LIMITS.invitationsPerRecipient * 100);
    expect(scaled.invitationsPerTenant).toBe(RATE_LIMITS.invitationsPerTenant * 100);
    expect(scaled.signInPerEmail).toBe(RATE_LIMITS.signInPerEmail * 100);
    expect(scaled.invitationResendIntervalSeconds).toBe(RATE_LIMITS.invitationResendIntervalSeconds / 100);
    expect(scaled.invitationWindowSeconds).toBe(RATE_LIMITS.invitationWindowSeconds);
    expect(scaled.windowSeconds).toBe(RATE_LIMITS.windowSeconds);
    expect(scaled.signInAccountFailures).toBe(RATE_LIMITS.signInAccountFailures * 100);
    expect(scaled.signInAccountDelayIntervalSeconds).toBe(RATE_LIMITS.signInAccountDelayIntervalSeconds / 100);
    expect(scaled.signInAccountMaxDelayIntervalSeconds).toBe(RATE_LIMITS.signInAccountMaxDelayIntervalSeconds / 100);
    expect(scaled.signInAccountWindowSeconds).toBe(RATE_LIMITS.signInAccountWindowSeconds);
    expect(scaled.signInKnownAddressWindowSeconds).toBe(RATE_LIMITS.signInKnownAddressWindowSeconds);
    expect(scaled.apiKeyChangesPerOrganization).toBe(RATE_LIMITS.apiKeyChangesPerOrganization * 100);
    expect(scaled.apiKeyChangesWindowSeconds).toBe(RATE_LIMITS.apiKeyChangesWindowSeconds);
  });
});
