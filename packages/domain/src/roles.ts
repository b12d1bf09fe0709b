import { ORG_TYPES, isOrgType, type OrgType } from './hierarchy.ts';

export const ROLE_LEVELS = ['admin', 'manager', 'user', 'support'] as const;
export type RoleLevel = (typeof ROLE_LEVELS)[number];

/** `{type}_{level}`, plus the plain `admin` role older accounts may hold. */
export type Role = `${OrgType}_${RoleLevel}` | 'admin';

export const ALL_ROLES: readonly Role[] = [...ORG_TYPES.flatMap((type) => ROLE_LEVELS.map((level) => `${type}_${level}` as Role)), 'admin'];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ALL_ROLES as readonly string[]).includes(value);
}

export interface ParsedRole {
  orgType: OrgType | null;
  level: RoleLevel;
}

/** Splits `super_agency_manager` into its organization type and level. */
export function parseRole(role: string): ParsedRole | null {
  if (role === 'admin') return { orgType: null, level: 'admin' };
  const cut = role.lastIndexOf('_');
  if (cut < 0) return null;
  const orgType = role.slice(0, cut);
  const level = role.slice(cut + 1);
  if (!isOrgType(orgType) || !(ROLE_LEVELS as readonly string[]).includes(level)) return null;
  return { orgType, level: level as RoleLevel };
}

export function roleLevel(role: string): RoleLevel | null {
  return parseRole(role)?.level ?? null;
}

/** Roles offered when inviting into an organization of this type. */
export function invitableRoles(orgType: OrgType | null | undefined): Role[] {
  if (!orgType) return [];
  return (['admin', 'manager', 'user'] as const).map((level) => `${orgType}_${level}` as Role);
}

/**
 * Roles a user record may hold in an organization of this type: admin, manager and
 * support for house, super_agency and agency; admin, manager and user for tenant; plus
 * user for the upper types, since invitations offer it.
 */
export function rolesForOrgType(orgType: OrgType): Role[] {
  const levels: RoleLevel[] = orgType === 'tenant' ? ['admin', 'manager', 'user'] : ['admin', 'manager', 'user', 'support'];
  return levels.map((level) => `${orgType}_${level}` as Role);
}

/** A role is valid only in an organization of its own type. */
export function isRoleValidForOrgType(role: string, orgType: OrgType): boolean {
  return (rolesForOrgType(orgType) as string[]).includes(role);
}

/** A role as every screen and sentence shows it: its words capitalized, "Super Agency Admin". */
export function roleLabel(role: string): string {
  return role
    .split('_')
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}
