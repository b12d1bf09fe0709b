import { describe, expect, it } from 'vitest';
import { MESSAGES, waitOf } from './messages.ts';

describe('amounts in messages', () => {
  it('are grouped by thousands, as everywhere else', () => {
    expect(MESSAGES.credits.insufficient('13999.50')).toBe('Insufficient credits: the balance is 13,999.50 credits.');
    expect(MESSAGES.usage.insufficient('1234.5', '25000.00')).toBe(
      'Insufficient credits: the event would take 25,000.00 credits and the balance is 1,234.50 credits.',
    );
    expect(MESSAGES.balanceAlerts.insufficient('Acme', '1000000.00')).toContain('has 1,000,000.00 credits');
    expect(MESSAGES.balanceAlerts.lowBalance('Acme', '1234.5', '10000.00')).toBe(
      'Low balance: Acme has 1,234.50 credits, below your alert threshold of 10,000.00 credits.',
    );
  });

  it("a child's low balance, mailed to its parent's admins, word for word", () => {
    expect(MESSAGES.balanceAlerts.childLowBalanceSubject('Acme Dental')).toBe('Low balance: Acme Dental (no active admin)');
    expect(MESSAGES.balanceAlerts.childLowBalance('Acme Dental', 'Northwind', '1234.5', '5000.00')).toBe(
      'Low balance: Acme Dental, a child of Northwind, has 1,234.50 credits, below its alert threshold of 5,000.00. It has no active admin, so this alert goes to the admins of Northwind.',
    );
  });
});

describe('spec wording', () => {
  it.each([
    [
      'auth.resetSent',
      MESSAGES.auth.resetSent,
      "If an account exists with the email you entered, we've sent a password reset link. Please check your email.",
    ],
    ['auth.invalidResetLink', MESSAGES.auth.invalidResetLink, 'Invalid or expired password reset link. Please request a new one.'],
    ['auth.passwordsDoNotMatch', MESSAGES.auth.passwordsDoNotMatch, 'Passwords do not match'],
    ['auth.passwordTooShort', MESSAGES.auth.passwordTooShort, 'Password must be at least 8 characters long'],
    ['auth.userNotAuthenticated', MESSAGES.auth.userNotAuthenticated, 'User is not authenticated.'],
    // invitations
    ['auth.invalidEmail', MESSAGES.auth.invalidEmail, 'Please enter a valid email address.'],
    ['organizations.nameMin', MESSAGES.organizations.nameMin, 'Organization name must be at least 2 characters.'],
    ['organizations.nameMax', MESSAGES.organizations.nameMax, 'Organization name must be at most 100 characters.'],
    ['organizations.selectType', MESSAGES.organizations.selectType, 'Please select an organization type.'],
    ['organizations.selectStatus', MESSAGES.organizations.selectStatus, 'Please select a status'],
    [
      'organizations.onlyOwnOrDirectChild',
      MESSAGES.organizations.onlyOwnOrDirectChild,
      'You can only update your own organization or direct child organizations.',
    ],
    ['organizations.notFound', MESSAGES.organizations.notFound, 'Organization not found'],
  ])('%s', (_key, actual, expected) => {
    expect(actual).toBe(expected);
  });

  it.each([
    ['tenant', 'Your organization type (tenant) cannot create child organizations.'],
    ['agency', 'Your organization type (agency) cannot create child organizations.'],
  ])('cannotCreateChildren(%s)', (type, text) => {
    expect(MESSAGES.organizations.cannotCreateChildren(type)).toBe(text);
  });

  it('the password-length message agrees with the minimum of 8', () => {
    expect(MESSAGES.auth.passwordTooShort).toContain('8');
  });
});

describe('waits in messages', () => {
  it('read in seconds under two minutes and in whole minutes, rounded up, from there', () => {
    expect(waitOf(0)).toBe('1 second');
    expect(waitOf(1)).toBe('1 second');
    expect(waitOf(59.2)).toBe('60 seconds');
    expect(waitOf(119)).toBe('119 seconds');
    expect(waitOf(120)).toBe('2 minutes');
    expect(waitOf(3599)).toBe('60 minutes');
    expect(MESSAGES.invitations.resentTooSoon(42)).toBe('This invitation was sent a moment ago. Try again in 42 seconds.');
    expect(MESSAGES.invitations.tooManyFromInviter(3000)).toBe('Too many invitations sent from your account. Try again in 50 minutes.');
  });
});

describe('organization types in sentences', () => {
  it.each([
    ['house', 'super_agency', 'A house can only create organizations of the next type down: Super Agency.'],
    ['super_agency', 'agency', 'A super agency can only create organizations of the next type down: Agency.'],
    ['agency', 'tenant', 'An agency can only create organizations of the next type down: Tenant.'],
    ['ancient', 'other_thing', 'An ancient can only create organizations of the next type down: other_thing.'],
  ])('wrongChildType(%s, %s) takes the right article and the labels', (parent, child, text) => {
    expect(MESSAGES.organizations.wrongChildType(parent, child)).toBe(text);
  });
});
