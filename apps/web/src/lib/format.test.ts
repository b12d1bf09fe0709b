import { describe, expect, it } from 'vitest';
import { avatarFallback, displayName } from './format';

describe('avatar fallback', () => {
  it('uses the first letter of the first name', () => {
    expect(avatarFallback({ first_name: 'Bea', email: 'x@example.test' })).toBe('B');
  });

  it('falls back to the first letter of the e-mail', () => {
    expect(avatarFallback({ first_name: null, email: 'zed@example.test' })).toBe('z');
    expect(avatarFallback({ first_name: '', email: 'zed@example.test' })).toBe('z');
  });

  it('falls back to AV without a user or an e-mail', () => {
    expect(avatarFallback(null)).toBe('AV');
    expect(avatarFallback({ first_name: null, email: '' })).toBe('AV');
  });
});

describe('profile name', () => {
  it('shows the first name, else Profile', () => {
    expect(displayName({ first_name: 'Bea', email: 'b@example.test' })).toBe('Bea');
    expect(displayName({ first_name: null, email: 'b@example.test' })).toBe('Profile');
    expect(displayName(null)).toBe('Profile');
  });
});
