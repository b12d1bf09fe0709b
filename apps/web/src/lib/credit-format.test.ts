import { describe, expect, it } from 'vitest';
import { entryTypeBadgeClasses, UNKNOWN_BADGE_CLASSES } from './entry-types';
import { formatCredits, formatDecimal, isLowBalance, subtractCredits } from './credit-format';
import { formatDateTime } from './dates';

describe('credit formatting', () => {
  it.each([
    ['12345.50', '12,345.50'],
    ['-1234567.05', '-1,234,567.05'],
    ['0.00', '0.00'],
    ['-0.00', '0.00'],
    ['999.9', '999.90'],
    ['123456789012345678901234.99', '123,456,789,012,345,678,901,234.99'],
    ['not a number', 'not a number'],
  ])('formats %s as %s without a float', (input, expected) => {
    expect(formatDecimal(input)).toBe(expected);
  });

  it('adds the word credits', () => {
    expect(formatCredits('12345.50')).toBe('12,345.50 credits');
  });

  it.each([
    ['99.99', true],
    ['0.00', true],
    ['-5.00', true],
    ['100.00', false],
    ['100.01', false],
    ['99999999999999999999.00', false],
  ])('balance %s is low: %s', (balance, low) => {
    expect(isLowBalance(balance)).toBe(low);
  });

  it.each([
    ['499.99', '500.00', true],
    ['500.00', '500.00', false],
    ['0.00', '0.00', false],
    ['12.5', '12.51', true],
    ['-0.01', '0.00', true],
    ['1000.00', 'nonsense', false],
  ])('balance %s against the threshold %s is low: %s', (balance, threshold, low) => {
    expect(isLowBalance(balance, threshold)).toBe(low);
  });

  it.each([
    ['1700.00', '500.00', '1200.00'],
    ['0.30', '0.10', '0.20'],
    ['1000.00', '1000.00', '0.00'],
    ['100.00', '100.01', '-0.01'],
    ['5.00', '12.50', '-7.50'],
    ['99999999999999.99', '0.01', '99999999999999.98'],
    ['12.5', '0.05', '12.45'],
    ['not a number', '1.00', null],
    ['1.00', 'nonsense', null],
  ])('%s less %s leaves %s, exactly', (balance, amount, left) => {
    expect(subtractCredits(balance, amount)).toBe(left);
  });

  it('shows dates like Jan 5, 2024 3:04 PM', () => {
    expect(formatDateTime(new Date(2024, 0, 5, 15, 4).toISOString())).toBe('Jan 5, 2024 3:04 PM');
  });

  it('uses grey only for unknown types', () => {
    expect(entryTypeBadgeClasses('mystery')).toBe(UNKNOWN_BADGE_CLASSES);
    expect(entryTypeBadgeClasses('refund')).not.toBe(UNKNOWN_BADGE_CLASSES);
  });
});
