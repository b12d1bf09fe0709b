import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { z } from 'zod';
import {
  emailSchema,
  newPasswordSchema,
  passwordBodySchema,
  recoverBodySchema,
  sessionSchema,
  signInBodySchema,
  updatePasswordFormSchema,
} from './schemas/auth.ts';
import { ERROR_CODES, errorBodySchema, okSchema, uuidSchema } from './schemas/common.ts';
import { USER_STATUSES, userProfileSchema } from './schemas/users.ts';
import { MESSAGES } from './messages.ts';

/** The product's wording, as the forms show it. */
const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';
const PASSWORD_TOO_SHORT = 'Password must be at least 8 characters long';
const INVALID_EMAIL = 'Please enter a valid email address.';

type Issue = { path: PropertyKey[]; message: string };

function issuesOf(schema: z.ZodType, value: unknown): Issue[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => ({ path: i.path, message: i.message }));
}

function messagesAt(schema: z.ZodType, value: unknown, field: string): string[] {
  return issuesOf(schema, value)
    .filter((i) => i.path[0] === field)
    .map((i) => i.message);
}

/** An address of exactly `length` characters. */
function emailOfLength(length: number): string {
  const domain = '@example.com';
  return 'a'.repeat(length - domain.length) + domain;
}

describe('signInBodySchema (email and password required)', () => {
  it('accepts an e-mail and a password', () => {
    expect(signInBodySchema.parse({ email: 'ann@example.com', password: 'secret' })).toEqual({
      email: 'ann@example.com',
      password: 'secret',
    });
  });

  it('does not require the password to meet the new-password minimum to sign in', () => {
    expect(signInBodySchema.safeParse({ email: 'ann@example.com', password: 'x' }).success).toBe(true);
  });

  it('trims the e-mail', () => {
    expect(signInBodySchema.parse({ email: '  ann@example.com\t', password: 'secret' }).email).toBe('ann@example.com');
  });

  it('does not trim the password (spaces are part of it)', () => {
    expect(signInBodySchema.parse({ email: 'ann@example.com', password: ' secret ' }).password).toBe(' secret ');
  });

  it.each([
    ['both missing', {}, ['email', 'password']],
    ['email missing', { password: 'secret' }, ['email']],
    ['password missing', { email: 'ann@example.com' }, ['password']],
    ['email empty', { email: '', password: 'secret' }, ['email']],
    ['email blank (only spaces)', { email: '    ', password: 'secret' }, ['email']],
    ['password empty', { email: 'ann@example.com', password: '' }, ['password']],
    ['email null', { email: null, password: 'secret' }, ['email']],
    ['password a number', { email: 'ann@example.com', password: 12345678 }, ['password']],
  ])('rejects %s, naming the field(s)', (_label, body, fields) => {
    const issues = issuesOf(signInBodySchema, body);
    expect([...new Set(issues.map((i) => String(i.path[0])))].sort()).toEqual([...fields].sort());
    for (const i of issues) expect(i.message.length).toBeGreaterThan(0);
  });

  it.each([
    ['missing', {}],
    ['empty', { email: '', password: '' }],
    ['blank', { email: '   ', password: '' }],
  ])('a %s e-mail and password each carry a "required" message', (_label, body) => {
    expect(messagesAt(signInBodySchema, body, 'email')).toEqual([MESSAGES.auth.emailRequired]);
    expect(messagesAt(signInBodySchema, body, 'password')).toEqual([MESSAGES.auth.passwordRequired]);
    expect(MESSAGES.auth.emailRequired).toMatch(/email/i);
    expect(MESSAGES.auth.emailRequired).toMatch(/required/i);
    expect(MESSAGES.auth.passwordRequired).toMatch(/password/i);
    expect(MESSAGES.auth.passwordRequired).toMatch(/required/i);
  });

  it.each(['not-an-email', 'ann@', '@example.com', 'ann example.com', 'ann@example', 'ann@@example.com'])(
    'rejects the malformed e-mail %j with the message of the schema',
    (email) => {
      expect(messagesAt(signInBodySchema, { email, password: 'secret' }, 'email')).toEqual([INVALID_EMAIL]);
    },
  );

  it('accepts an e-mail of 254 characters and rejects one of 255 with the invalid-e-mail message', () => {
    expect(signInBodySchema.safeParse({ email: emailOfLength(254), password: 'secret' }).success).toBe(true);
    expect(messagesAt(signInBodySchema, { email: emailOfLength(255), password: 'secret' }, 'email')).toEqual([INVALID_EMAIL]);
  });

  it('rejects a very long e-mail with a single message', () => {
    expect(messagesAt(signInBodySchema, { email: emailOfLength(10_000), password: 'secret' }, 'email')).toEqual([INVALID_EMAIL]);
  });

  it('the length limit applies after trimming', () => {
    const padded = `   ${emailOfLength(254)}   `;
    expect(signInBodySchema.safeParse({ email: padded, password: 'secret' }).success).toBe(true);
  });

  it('an over-long password is refused with the generic invalid-credentials text (reveals nothing)', () => {
    expect(messagesAt(signInBodySchema, { email: 'ann@example.com', password: 'x'.repeat(257) }, 'password')).toEqual([
      'Invalid email or password. Please check your credentials and try again.',
    ]);
    expect(signInBodySchema.safeParse({ email: 'ann@example.com', password: 'x'.repeat(256) }).success).toBe(true);
  });

  it('rejects a non-object body', () => {
    for (const body of [null, undefined, 'ann@example.com', 42, []]) {
      expect(signInBodySchema.safeParse(body).success).toBe(false);
    }
  });

  it('any valid address with any non-empty password parses, with the address unchanged', () => {
    fc.assert(
      fc.property(fc.emailAddress({ size: 'small' }), fc.string({ minLength: 1, maxLength: 256 }), (email, password) => {
        fc.pre(email.length <= 254);
        const result = signInBodySchema.safeParse({ email: ` ${email} `, password });
        // zod's address check is stricter than RFC 5322; when it accepts, the value is the trimmed address.
        if (result.success) {
          expect(result.data).toEqual({ email, password });
        } else {
          expect(result.error.issues.every((i) => i.path[0] === 'email' && i.message === INVALID_EMAIL)).toBe(true);
        }
      }),
    );
  });
});

describe('emailSchema / recoverBodySchema (reset password asks for an e-mail)', () => {
  it('trims and accepts', () => {
    expect(emailSchema.parse(' bob@example.org ')).toBe('bob@example.org');
    expect(recoverBodySchema.parse({ email: ' bob@example.org ' })).toEqual({ email: 'bob@example.org' });
  });

  it('rejects a missing or malformed e-mail', () => {
    expect(messagesAt(recoverBodySchema, {}, 'email')).toEqual([MESSAGES.auth.emailRequired]);
    expect(messagesAt(recoverBodySchema, { email: 'bob' }, 'email')).toEqual([INVALID_EMAIL]);
  });
});

describe('updatePasswordFormSchema', () => {
  it('accepts two equal passwords of at least 8 characters', () => {
    expect(updatePasswordFormSchema.safeParse({ password: 'abcdefgh', confirm: 'abcdefgh' }).success).toBe(true);
    expect(updatePasswordFormSchema.safeParse({ password: 'correct horse battery', confirm: 'correct horse battery' }).success).toBe(true);
  });

  it('rejects different passwords with "Passwords do not match" on the confirm field', () => {
    const issues = issuesOf(updatePasswordFormSchema, { password: 'abcdefgh', confirm: 'abcdefgX' });
    expect(issues).toEqual([{ path: ['confirm'], message: PASSWORDS_DO_NOT_MATCH }]);
  });

  it.each([['a'], ['1234567'], ['       '], ['']])('rejects %j (shorter than 8) with the message of the schema', (password) => {
    expect(messagesAt(updatePasswordFormSchema, { password, confirm: password }, 'password')).toEqual([PASSWORD_TOO_SHORT]);
  });

  it('counts 8 characters as enough (the minimum is inclusive)', () => {
    expect(updatePasswordFormSchema.safeParse({ password: '12345678', confirm: '12345678' }).success).toBe(true);
  });

  it('reports both problems when the password is short and the confirmation differs', () => {
    const issues = issuesOf(updatePasswordFormSchema, { password: 'short', confirm: 'other' });
    expect(issues).toContainEqual({ path: ['password'], message: PASSWORD_TOO_SHORT });
    expect(issues).toContainEqual({ path: ['confirm'], message: PASSWORDS_DO_NOT_MATCH });
  });

  it('a missing password is refused with the length message', () => {
    expect(messagesAt(updatePasswordFormSchema, { confirm: 'abcdefgh' }, 'password')).toEqual([PASSWORD_TOO_SHORT]);
  });

  it('matching is exact (case and surrounding spaces count)', () => {
    expect(messagesAt(updatePasswordFormSchema, { password: 'Abcdefgh', confirm: 'abcdefgh' }, 'confirm')).toEqual([
      PASSWORDS_DO_NOT_MATCH,
    ]);
    expect(messagesAt(updatePasswordFormSchema, { password: 'abcdefgh', confirm: 'abcdefgh ' }, 'confirm')).toEqual([
      PASSWORDS_DO_NOT_MATCH,
    ]);
  });

  it('property: equal passwords pass iff at least 8 (and at most 256) characters', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (password) => {
        const ok = updatePasswordFormSchema.safeParse({ password, confirm: password }).success;
        expect(ok).toBe(password.length >= 8 && password.length <= 256);
      }),
    );
  });

  it('property: two different valid passwords never pass', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 8, maxLength: 64 }), fc.string({ minLength: 8, maxLength: 64 }), (a, b) => {
        fc.pre(a !== b);
        expect(messagesAt(updatePasswordFormSchema, { password: a, confirm: b }, 'confirm')).toEqual([PASSWORDS_DO_NOT_MATCH]);
      }),
    );
  });
});

describe('newPasswordSchema / passwordBodySchema (password minimum 8)', () => {
  it('accepts a password of 8 characters, with a recovery token or with the current password', () => {
    expect(passwordBodySchema.parse({ password: 'abcdefgh', current_password: 'old' })).toEqual({
      password: 'abcdefgh',
      current_password: 'old',
    });
    expect(passwordBodySchema.parse({ password: 'abcdefgh', token: 'recovery-token' })).toEqual({
      password: 'abcdefgh',
      token: 'recovery-token',
    });
  });

  it('without a recovery token, requires the current password', () => {
    expect(messagesAt(passwordBodySchema, { password: 'abcdefgh' }, 'current_password')).toEqual([MESSAGES.auth.currentPasswordRequired]);
    expect(messagesAt(passwordBodySchema, { password: 'abcdefgh', current_password: '' }, 'current_password')).toEqual([
      MESSAGES.auth.currentPasswordRequired,
    ]);
  });

  it.each([['abcdefg'], [''], ['1234']])('rejects %j with the message of the schema', (password) => {
    expect(messagesAt(passwordBodySchema, { password }, 'password')).toEqual([PASSWORD_TOO_SHORT]);
  });

  it('rejects a missing password', () => {
    expect(messagesAt(passwordBodySchema, {}, 'password')).toEqual([PASSWORD_TOO_SHORT]);
    expect(messagesAt(passwordBodySchema, { password: null }, 'password')).toEqual([PASSWORD_TOO_SHORT]);
  });

  it('does not trim a new password (spaces count towards its length)', () => {
    expect(passwordBodySchema.parse({ password: '        ', token: 'recovery-token' }).password).toBe('        ');
  });

  it('bounds the password length at 256', () => {
    expect(newPasswordSchema.safeParse('x'.repeat(256)).success).toBe(true);
    expect(newPasswordSchema.safeParse('x'.repeat(257)).success).toBe(false);
  });

  it.each([
    ['empty', ''],
    ['over 200 characters', 't'.repeat(201)],
    ['a number', 12345],
  ])('rejects a token that is %s', (_label, token) => {
    expect(messagesAt(passwordBodySchema, { password: 'abcdefgh', token }, 'token').length).toBeGreaterThan(0);
  });

  it('accepts a token of 200 characters', () => {
    expect(passwordBodySchema.safeParse({ password: 'abcdefgh', token: 't'.repeat(200) }).success).toBe(true);
  });
});

describe('response schemas', () => {
  const ORG_ID = '5b0d4a5e-2f6c-4b8e-9a43-0c1a5f3e7d21';
  const USER_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
  const profile = {
    id: USER_ID,
    email: 'ann@example.com',
    first_name: 'Ann',
    last_name: null,
    avatar_url: null,
    role: 'tenant_user',
    status: 'active',
    organization_id: ORG_ID,
    preferred_locale: 'en',
    invited_at: null,
    last_login_at: null,
    created_at: '2024-01-05T15:04:00Z',
    updated_at: '2024-01-05T15:04:00Z',
    deleted_at: null,
    organization: { id: ORG_ID, name: 'Acme', org_type: 'tenant', status: 'active' },
  };

  it('a user profile has every field and avatar_url is always null', () => {
    expect(userProfileSchema.safeParse(profile).success).toBe(true);
    expect(userProfileSchema.safeParse({ ...profile, avatar_url: 'https://x/y.png' }).success).toBe(false);
  });

  it.each(['active', 'inactive', 'pending', 'suspended'])('user status %s is accepted', (status) => {
    expect(userProfileSchema.safeParse({ ...profile, status }).success).toBe(true);
  });

  it('user statuses are active, inactive, pending and suspended', () => {
    expect([...USER_STATUSES].sort()).toEqual(['active', 'inactive', 'pending', 'suspended']);
  });

  it('a profile whose organization type is not one of the four is refused', () => {
    expect(userProfileSchema.safeParse({ ...profile, organization: { ...profile.organization, org_type: 'galaxy' } }).success).toBe(false);
  });

  it('a session is a bearer token with a profile', () => {
    const session = { access_token: 'a.b.c', token_type: 'bearer', expires_in: 900, expires_at: 1_900_000_000, user: profile };
    expect(sessionSchema.safeParse(session).success).toBe(true);
    expect(sessionSchema.safeParse({ ...session, token_type: 'basic' }).success).toBe(false);
    expect(sessionSchema.safeParse({ ...session, expires_in: 1.5 }).success).toBe(false);
  });

  it('the error body has code and message, optional per-field messages and request id', () => {
    expect(errorBodySchema.safeParse({ error: { code: ERROR_CODES.validation, message: 'x' } }).success).toBe(true);
    expect(
      errorBodySchema.safeParse({ error: { code: 'validation_failed', message: 'x', fields: { email: INVALID_EMAIL }, request_id: 'r1' } })
        .success,
    ).toBe(true);
    expect(errorBodySchema.safeParse({ error: { message: 'x' } }).success).toBe(false);
    expect(errorBodySchema.safeParse({ code: 'x', message: 'y' }).success).toBe(false);
  });

  it('error codes are distinct', () => {
    const codes = Object.values(ERROR_CODES);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('uuid and ok schemas', () => {
    expect(uuidSchema.safeParse(ORG_ID).success).toBe(true);
    expect(uuidSchema.safeParse('not-a-uuid').success).toBe(false);
    expect(okSchema.safeParse({ ok: true }).success).toBe(true);
    expect(okSchema.safeParse({ ok: false }).success).toBe(false);
  });
});
