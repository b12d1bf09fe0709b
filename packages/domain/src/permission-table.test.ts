import { describe, expect, it } from 'vitest';
import { ORG_TYPES } from './hierarchy.ts';
import { PERMISSIONS, can, type Permission } from './permissions.ts';
import { ALL_ROLES, ROLE_LEVELS } from './roles.ts';

/**
 * The permission table as it holds today, pinned so that any change to who holds what shows
 * here as a changed line. Each row names the roles that hold the permission, in five groups:
 * house, super agency, agency and tenant (each Admin, Manager, User, Support; a dot where the
 * role does not hold it), then the plain `admin` role. A new permission fails the compiler here
 * until its row is written.
 */
const PINNED: Record<Permission, string> = {
  'organizations.list': 'AM.S AM.S AM.S AM.S A',
  'organizations.get': 'AM.S AM.S AM.S AM.S A',
  'organizations.create': 'A... A... A... A... A',
  'organizations.update': 'AM.. AM.. AM.. AM.. A',
  'organizations.delete': 'A... A... A... A... A',
  'organizations.allocate_credits': 'A... A... A... A... A',
  'organizations.manage_activated_agent_limit': 'A... A... A... A... A',
  'users.list': 'AM.S AM.S AM.S AM.S A',
  'users.get': 'AMUS AMUS AMUS AMUS A',
  'users.create': 'AM.. AM.. AM.. AM.. A',
  'users.update': 'AMU. AMU. AMU. AMU. A',
  'users.delete': 'A... A... A... A... A',
  'users.update_role': 'A... A... A... A... A',
  'users.read': 'AMUS AMUS AMUS AMUS A',
  'resources.view': 'AMUS AMUS AMUS AMUS A',
  'resources.manage': 'A... A... A... A... A',
  'billing.view': 'AMUS AMUS AMUS AMUS A',
  'billing.manage': 'A... A... A... A... A',
  'invitations.manage': 'A... A... A... A... A',
  'credits.adjust': 'A... .... .... .... .',
  'credits.import_usage': 'A... .... .... .... .',
  'debug.view': 'A... A... A... .... .',
  'debug.outbox': 'A... .... .... .... .',
  'agents.catalog': 'A... .... .... .... .',
  'api_keys.manage': 'A... A... A... A... A',
  'webhooks.manage': 'A... A... A... A... A',
  'audit.view': 'A... A... A... A... A',
  'settings.manage': 'A... .... .... .... .',
  'identity.manage': 'A... A... A... A... A',
  'invoices.manage': 'A... A... A... .... .',
};

const LETTERS = { admin: 'A', manager: 'M', user: 'U', support: 'S' } as const;

/** The row `can()` gives a permission today, in the pinned layout. */
function rowOf(permission: Permission): string {
  const typed = ORG_TYPES.map((type) => ROLE_LEVELS.map((level) => (can(`${type}_${level}`, permission) ? LETTERS[level] : '.')).join(''));
  return [...typed, can('admin', permission) ? 'A' : '.'].join(' ');
}

describe('the permission table, pinned', () => {
  it('lays out every role once: four levels in each of the four types, then the plain admin', () => {
    expect(ALL_ROLES).toEqual([...ORG_TYPES.flatMap((type) => ROLE_LEVELS.map((level) => `${type}_${level}`)), 'admin']);
    expect(Object.keys(LETTERS)).toEqual([...ROLE_LEVELS]);
  });

  it('has a row for every permission and for nothing else', () => {
    expect(Object.keys(PINNED)).toEqual([...PERMISSIONS]);
  });

  it.each(Object.entries(PINNED))('%s is held by %s', (permission, row) => {
    expect(rowOf(permission as Permission)).toBe(row);
  });

  it('a name that is not a permission is held by nobody', () => {
    for (const name of ['organizations.archive', 'toString', 'constructor', '__proto__', '']) {
      expect(ALL_ROLES.filter((role) => can(role, name as Permission))).toEqual([]);
    }
  });
});
