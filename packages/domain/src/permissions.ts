import { parseRole, type RoleLevel } from './roles.ts';

export const PERMISSIONS = [
  'organizations.list',
  'organizations.get',
  'organizations.create',
  'organizations.update',
  'organizations.delete',
  'organizations.allocate_credits',
  'organizations.manage_activated_agent_limit',
  'users.list',
  'users.get',
  'users.create',
  'users.update',
  'users.delete',
  'users.update_role',
  'users.read',
  'resources.view',
  'resources.manage',
  'billing.view',
  'billing.manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * The table of spec 2 section 6. The spec does not show the support level; we make it
 * read-only (DESIGN.md section 4): list/get of organizations and users, resources and
 * billing views.
 */
export const PERMISSIONS_BY_LEVEL: Record<RoleLevel, readonly Permission[]> = {
  admin: PERMISSIONS,
  manager: [
    'organizations.list',
    'organizations.get',
    'organizations.update',
    'users.list',
    'users.get',
    'users.create',
    'users.update',
    'users.read',
    'resources.view',
    'billing.view',
  ],
  user: ['users.get', 'users.update', 'users.read', 'resources.view', 'billing.view'],
  support: [
    'organizations.list',
    'organizations.get',
    'users.list',
    'users.get',
    'users.read',
    'resources.view',
    'billing.view',
  ],
};

/** Whether a role holds a permission. Unknown roles hold nothing. */
export function can(role: string | null | undefined, permission: Permission): boolean {
  if (!role) return false;
  const parsed = parseRole(role);
  if (!parsed) return false;
  return PERMISSIONS_BY_LEVEL[parsed.level].includes(permission);
}

/** Roles that may open /debug (spec 1 section 6). */
export const DEBUG_ROLES = ['house_admin', 'super_agency_admin', 'agency_admin'] as const;

export function canOpenDebug(role: string | null | undefined): boolean {
  return !!role && (DEBUG_ROLES as readonly string[]).includes(role);
}
