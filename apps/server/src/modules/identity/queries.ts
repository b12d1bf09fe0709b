import type { Kysely } from 'kysely';
import { MESSAGES, jitRolesFor, type IdentityView } from '@console/domain';
import type { Config } from '../../config.ts';
import type { DB, Executor } from '../../db/schema.ts';
import { ADMIN_ROLES } from '../../lib/admins.ts';
import type { Caller } from '../../lib/caller.ts';
import { identityOrganizationFor, type IdentityOrg } from '../../lib/identity-organization.ts';
import type { SecretSealer } from '../../lib/sealer.ts';
import { listDomains } from './domains.ts';
import type { OidcClients } from './oidc.ts';

export const m = MESSAGES.identity;

/** What the identity use cases are built from. */
export interface IdentityDeps {
  db: Kysely<DB>;
  config: Config;
  /** Seals client secrets and PKCE verifiers. */
  sealer: SecretSealer;
  oidc: OidcClients;
}

export type { IdentityOrg } from '../../lib/identity-organization.ts';

/** The address an organization registers at its provider as the redirect (callback) URI. */
export const redirectUriOf = (appUrl: string): string => `${appUrl.replace(/\/+$/, '')}/api/auth/sso/callback`;

/** The organization whose identity the caller reads: absent or out of scope is 404, another than their own 403. */
export const identityOrganization = (caller: Caller, id: string, executor: Executor): Promise<IdentityOrg> =>
  identityOrganizationFor(caller, id, executor, false);

/** The organization whose identity the caller changes: as above, and 403 unless they may write. */
export const manageableOrganization = (caller: Caller, id: string, executor: Executor): Promise<IdentityOrg> =>
  identityOrganizationFor(caller, id, executor, true);

const nameOf = (row: { email: string; first_name: string | null; last_name: string | null }) =>
  [row.first_name, row.last_name].filter(Boolean).join(' ') || row.email;

/** The organization's provider (never its secret), settings, break-glass admin, admins and domains. */
export async function readIdentity(
  org: Pick<IdentityOrg, 'id' | 'org_type'>,
  executor: Executor,
  config: Pick<Config, 'appUrl'>,
): Promise<IdentityView> {
  const provider = await executor
    .selectFrom('identity_providers')
    .select([
      'issuer',
      'client_id',
      'email_claim',
      'name_claim',
      'tested_at',
      'updated_at',
      'jit_role',
      'enforce_sso',
      'break_glass_user_id',
    ])
    .where('organization_id', '=', org.id)
    .executeTakeFirst();
  const admins = await executor
    .selectFrom('users')
    .select(['id', 'email', 'first_name', 'last_name'])
    .where('organization_id', '=', org.id)
    .where('role', 'in', ADMIN_ROLES)
    .where('status', '=', 'active')
    .where('deleted_at', 'is', null)
    .orderBy('email')
    .execute();
  const breakGlass = provider?.break_glass_user_id
    ? await executor
        .selectFrom('users')
        .select(['id', 'email', 'first_name', 'last_name'])
        .where('id', '=', provider.break_glass_user_id)
        .executeTakeFirst()
    : undefined;
  return {
    organization_id: org.id,
    provider: provider
      ? {
          issuer: provider.issuer,
          client_id: provider.client_id,
          email_claim: provider.email_claim,
          name_claim: provider.name_claim,
          tested_at: provider.tested_at,
          updated_at: provider.updated_at,
        }
      : null,
    redirect_uri: redirectUriOf(config.appUrl),
    jit_role: provider?.jit_role ?? null,
    jit_roles: jitRolesFor(org.org_type),
    enforce_sso: provider?.enforce_sso ?? false,
    break_glass: breakGlass ? { id: breakGlass.id, email: breakGlass.email, name: nameOf(breakGlass) } : null,
    admins: admins.map((a) => ({ id: a.id, email: a.email, name: nameOf(a) })),
    domains: await listDomains(org.id, executor),
  };
}

/** Whether the organization has a claimed domain in effect (verified or approved). */
export async function hasDomainInEffect(organizationId: string, executor: Executor, domain?: string): Promise<boolean> {
  let query = executor
    .selectFrom('identity_domains')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where((eb) => eb.or([eb('verified_at', 'is not', null), eb('approved_at', 'is not', null)]));
  if (domain !== undefined) query = query.where('domain', '=', domain);
  return (await query.executeTakeFirst()) !== undefined;
}
