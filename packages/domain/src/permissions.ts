import type { OrgType } from './hierarchy.ts';
import { parseRole, type RoleLevel } from './roles.ts';

/**
 * Who holds one permission: each level named, true when it holds the permission and false when
 * it does not, and the organization types where it holds at all. `'any'` holds in every type
 * and for the plain `admin` role, which has no type; a list holds only in those types, whatever
 * the level grants.
 */
export type PermissionHolders = { readonly [L in RoleLevel]: boolean } & { readonly orgTypes: 'any' | readonly OrgType[] };

/**
 * The permission table: each permission with its holders. Nothing is granted by default: a new
 * permission is a new row, and the compiler refuses the row until it names every level (a new
 * level, likewise, until every row names it). Managers read and edit organizations and people
 * but move nothing; users hold their own record and the read views; support is read-only (list
 * and get of organizations and people, resources and billing views). The rows from
 * invitations.manage on are admin actions, some at the house only (credits enter the system and
 * usage is recorded there; the outbox, the catalog and the global settings are the house's) and
 * some in every type but tenants (the debug page, invoices).
 */
const TABLE = {
  'organizations.list': { admin: true, manager: true, user: false, support: true, orgTypes: 'any' },
  'organizations.get': { admin: true, manager: true, user: false, support: true, orgTypes: 'any' },
  'organizations.create': { admin: true, manager: false, user: false, support: false, orgTypes: 'any' },
  'organizations.update': { admin: true, manager: true, user: false, support: false, orgTypes: 'any' },
  'organizations.delete': { admin: true, manager: false, user: false, support: false, orgTypes: 'any' },
  'organizations.allocate_credits': { admin: true, manager: false, user: false, support: false, orgTypes: 'any' },
  'organizations.manage_activated_agent_limit': { admin: true, manager: false, user: false, support: false, orgTypes: 'any' },
  'users.list': { admin: true, manager: true, user: false, support: true, orgTypes: 'any' },
  'users.get': { admin: true, manager: true, user: true, support: true, orgTypes: 'any' },
  'users.create': { admin: true, manager: true, user: false, support: false, orgTypes: 'any' },
  'users.update': { admin: true, manager: true, user: true, support: false, orgTypes: 'any' },
  'users.delete': { admin: true, manager: false, user: false, support: false, orgTypes: 'any' },
  'users.update_role': { admin: true, manager: false, user: false, support: false, orgTypes: 'any' },
  'users.read': { admin: true, manager: true, user: true, support: true, orgTypes: 'any' },
  'resources.view': { admin: true, manager: true, user: true, support: true, orgTypes: 'any' },
  'resources.manage': { admin: true, manager: false, user: false, support: false, orgTypes: 'any' },
  'billing.view': { admin: true, manager: true, user: true, support: true, orgTypes: 'any' },
  'billing.manage': { admin: true, manager: false, user: false, support: false, orgTypes: 'any' },
  /** Resend, copy the link of and revoke invitations. */
  'invitations.manage': { admin: true, manager: false, user: false, support: false, orgTypes: 'any' },
  /** Credits enter or leave the system: adjust the own house's balance. */
  'credits.adjust': { admin: true, manager: false, user: false, support: false, orgTypes: ['house'] },
  /** Record metered usage (consumption and refunds) for organizations in scope. */
  'credits.import_usage': { admin: true, manager: false, user: false, support: false, orgTypes: ['house'] },
  /** The debug page: token claims, the children cross-check. */
  'debug.view': { admin: true, manager: false, user: false, support: false, orgTypes: ['house', 'super_agency', 'agency'] },
  /** The mail outbox, which holds every account's reset and invitation links. */
  'debug.outbox': { admin: true, manager: false, user: false, support: false, orgTypes: ['house'] },
  /** The agent catalog: agent types, their units and prices. */
  'agents.catalog': { admin: true, manager: false, user: false, support: false, orgTypes: ['house'] },
  /** API keys of the own organization for agent runtimes. */
  'api_keys.manage': { admin: true, manager: false, user: false, support: false, orgTypes: 'any' },
  /** Webhook endpoints of the own organization, their secrets and deliveries. */
  'webhooks.manage': { admin: true, manager: false, user: false, support: false, orgTypes: 'any' },
  /** The activity log: the audit events of the own organization and its subtree. */
  'audit.view': { admin: true, manager: false, user: false, support: false, orgTypes: 'any' },
  /** The global settings every page reads: documentation, billing portal and community links. */
  'settings.manage': { admin: true, manager: false, user: false, support: false, orgTypes: ['house'] },
  /** The own organization's identity: its OpenID provider, e-mail domains and SCIM tokens. */
  'identity.manage': { admin: true, manager: false, user: false, support: false, orgTypes: 'any' },
  /** A seller's billing details, invoices and payments: the own organization's, when it bills children. */
  'invoices.manage': { admin: true, manager: false, user: false, support: false, orgTypes: ['house', 'super_agency', 'agency'] },
} satisfies Record<string, PermissionHolders>;

export type Permission = keyof typeof TABLE;
export const PERMISSION_HOLDERS: Readonly<Record<Permission, PermissionHolders>> = TABLE;
export const PERMISSIONS = Object.keys(TABLE) as readonly Permission[];

/** Whether a role holds a permission. Unknown roles, and names that are not permissions, hold nothing. */
export function can(role: string | null | undefined, permission: Permission): boolean {
  if (!role) return false;
  const parsed = parseRole(role);
  if (!parsed || !Object.hasOwn(PERMISSION_HOLDERS, permission)) return false;
  const holders = PERMISSION_HOLDERS[permission];
  if (!holders[parsed.level]) return false;
  return holders.orgTypes === 'any' || holders.orgTypes.some((type) => type === parsed.orgType);
}
