import { describe, expect, it } from 'vitest';
import { CONTROL_TEXT, UNSTORABLE_TEXT, isSingleLineText } from './schemas/common.ts';
import { createInvitationSchema } from './schemas/invitations.ts';
import { createOrganizationSchema, updateOrganizationSchema } from './schemas/organizations.ts';
import { updateMeSchema, updateUserSchema } from './schemas/users.ts';

const CONTROLS = ['\r', '\n', '\r\n', '\t', '\u0000', '\u0001', '\u0007', '\u001b', '\u007f', '\u0085', '\u2028', '\u2029'];

describe('names are one line without control characters', () => {
  it.each(CONTROLS.map((c) => [JSON.stringify(c), c]))('isSingleLineText refuses %s', (_label, control) => {
    expect(isSingleLineText(`Acme${control}Corp`)).toBe(false);
  });

  it('keeps ordinary names, accents, emoji and right-to-left text', () => {
    for (const name of ['Acme Corp', 'Zoë O’Brien-Łukasz', 'שלום', '株式会社', 'Café ☕']) expect(isSingleLineText(name)).toBe(true);
  });

  const names: [string, (value: string) => { success: boolean; error?: { issues: { message: string }[] } }][] = [
    ['organization name (create)', (name) => createOrganizationSchema.safeParse({ name, org_type: 'tenant' })],
    ['organization name (update)', (name) => updateOrganizationSchema.safeParse({ name })],
    ['own first name', (first_name) => updateMeSchema.safeParse({ first_name })],
    ["a user's last name", (last_name) => updateUserSchema.safeParse({ last_name })],
    [
      'invitation first name',
      (first_name) => createInvitationSchema.safeParse({ email: 'a@b.co', first_name, last_name: 'Smith', role: 'tenant_user' }),
    ],
    [
      'invitation last name',
      (last_name) => createInvitationSchema.safeParse({ email: 'a@b.co', first_name: 'Ann', last_name, role: 'tenant_user' }),
    ],
  ];

  it.each(names)('%s: a line break or control inside is refused with its message', (_field, parse) => {
    for (const control of CONTROLS) {
      const result = parse(`Acme${control}Injected`);
      expect(result.success, JSON.stringify(control)).toBe(false);
      const messages = result.error!.issues.map((issue) => issue.message);
      expect(messages, JSON.stringify(control)).toContain(control === '\u0000' ? UNSTORABLE_TEXT : CONTROL_TEXT);
    }
    expect(parse('Acme Injected').success).toBe(true);
  });
});
