import { describe, expect, it } from 'vitest';
import { formatPrice, formatUnits, formatUnitsOf, lastActive } from './agents';

describe('agent figures', () => {
  it.each([
    ['12.5000', '12.5'],
    ['1200.0000', '1,200'],
    ['0.0005', '0.0005'],
    ['0.0000', '0'],
    ['1234567.2500', '1,234,567.25'],
    ['odd', 'odd'],
  ])('shows units %s as %s', (value, shown) => {
    expect(formatUnits(value)).toBe(shown);
  });

  it('shows units with their unit and prices per unit', () => {
    expect(formatUnitsOf('10.4000', '1k rows')).toBe('10.4 × 1k rows');
    expect(formatPrice('0.2500', 'run')).toBe('0.25 credits per run');
  });

  it('says how long ago an agent was active, never "in" the future, and nothing when never', () => {
    const now = new Date('2025-03-10T12:00:00Z');
    expect(lastActive('2025-03-10T11:55:00Z', now)).toBe('5 minutes ago');
    expect(lastActive('2025-03-10T12:00:03Z', now)).toBe('just now');
    expect(lastActive(null, now)).toBeNull();
  });
});
