import type { OrgType } from './hierarchy.ts';
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
  /** Resend, copy the link of and revoke invitations. */
  'invitations.manage',
  /** Credits enter or leave the system: adjust the own house's balance. */
  'credits.adjust',
  /** Record metered usage (consumption and refunds) for organizations in scope. */
  'credits.import_usage',
  /** The debug page: token claims, the children cross-check. */
  'debug.view',
  /** The mail outbox, which holds every account's reset and invitation links. */
  'debug.outbox',
  /** The agent catalog: agent types, their units and prices. */
  'agents.catalog',
  /** API keys of the own organization for agent runtimes. */
  'api_keys.manage',
  /** Webhook endpoints of the own organization, their secrets and deliveries. */
  'webhooks.manage',
  /** The activity log: the audit events of the own organization and its subtree. */
  'audit.view',
  /** The global settings every page reads: documentation, billing portal and community links. */
  'settings.manage',
  /** The own organization's identity: its OpenID provider, e-mail domains and SCIM tokens. */
  'identity.manage',
  /** A seller's billing details, invoices and payments: the own organization's, when it bills children. */
  'invoices.manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * What each level holds. The first eighteen names are the product's permission table; the
 * support level, which that table leaves out, is read-only (list and get of organizations
 * and users, resources and billing views). Invitation management, the agent catalog and
 * API keys are admin actions.
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
  support: ['organizations.list', 'organizations.get', 'users.list', 'users.get', 'users.read', 'resources.view', 'billing.view'],
};

/**
 * Permissions that hold only in organizations of these types, whatever the level grants:
 * credits enter the system and usage is recorded at the house, the outbox is the house's,
 * the global settings are the house's, and the debug page is for every type but tenants.
 */
export const PERMISSION_ORG_TYPES: Partial<Record<Permission, readonly OrgType[]>> = {
  'credits.adjust': ['house'],
  'credits.import_usage': ['house'],
  'debug.outbox': ['house'],
  'agents.catalog': ['house'],
  'settings.manage': ['house'],
  'debug.view': ['house', 'super_agency', 'agency'],
  'invoices.manage': ['house', 'super_agency', 'agency'],
};

/** Whether a role holds a permission. Unknown roles hold nothing. */
export function can(role: string | null | undefined, permission: Permission): boolean {
  if (!role) return false;
  const parsed = parseRole(role);
  if (!parsed) return false;
  if (!PERMISSIONS_BY_LEVEL[parsed.level].includes(permission)) return false;
  const types = PERMISSION_ORG_TYPES[permission];
  return !types || (parsed.orgType !== null && types.includes(parsed.orgType));
}
