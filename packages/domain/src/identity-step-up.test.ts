import { describe, expect, it } from 'vitest';
import { IDENTITY, isReturnPath, isSsoStepUpError, SSO_STEP_UP_ERRORS } from './identity.ts';
import { ssoStepUpBodySchema } from './schemas/identity.ts';
import { STEP_UP_METHODS } from './schemas/step-up.ts';

describe('a step-up through the identity provider', () => {
  it('is offered as a method of its own', () => {
    expect(STEP_UP_METHODS).toContain('sso');
  });

  it('comes back only to a path of this console', () => {
    for (const path of ['/', '/credits', '/a b', '/organizations/1?tab=users#top', '/a//b', `/${'x'.repeat(IDENTITY.returnToMax - 1)}`]) {
      expect(isReturnPath(path), path).toBe(true);
    }
    for (const path of [
      '',
      'credits',
      '//evil.test',
      '//evil.test/path',
      'https://evil.test',
      'javascript:alert(1)',
      '/\\evil.test',
      '/\t/evil.test',
      '/\n/evil.test',
      '/\u007f',
      `/${'x'.repeat(IDENTITY.returnToMax)}`,
    ]) {
      expect(isReturnPath(path), JSON.stringify(path)).toBe(false);
    }
    expect(ssoStepUpBodySchema.safeParse({ return_to: '/credits' }).success).toBe(true);
    expect(ssoStepUpBodySchema.safeParse({ return_to: '//evil.test' }).success).toBe(false);
    expect(ssoStepUpBodySchema.safeParse({ return_to: '/credits', extra: 1 }).success).toBe(false);
  });

  it('knows the reasons it may come back with, and nothing else', () => {
    for (const reason of SSO_STEP_UP_ERRORS) expect(isSsoStepUpError(reason)).toBe(true);
    for (const value of ['ok', '<script>', null, 3]) expect(isSsoStepUpError(value)).toBe(false);
  });
});
