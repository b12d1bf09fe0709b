import { sql } from 'kysely';
import type { IdentityProviderInput, IdentityView } from '@console/domain';
import { allowedHosts, bare } from '../../lib/addresses.ts';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { issuerProblem } from '../../lib/sso-fetch.ts';
import { ProviderUnreachable } from './oidc.ts';
import { manageableOrganization, m, readIdentity, type IdentityDeps } from './queries.ts';

/**
 * An organization's provider, registered and removed by its own admins. The issuer is
 * discovered before anything is saved, so a typo or an unreachable provider is refused with
 * the reason instead of breaking everyone's sign-in later. The client secret is sealed; a
 * change that leaves it out keeps the stored one.
 */
export function createProviderRegistration({ db, config, sealer, oidc }: IdentityDeps) {
  const allowed = allowedHosts(config.identityAllowedHosts);

  async function set(caller: Caller, id: string, input: IdentityProviderInput, info: ClientInfo): Promise<IdentityView> {
    const org = await manageableOrganization(caller, id, db);
    const issuer = new URL(input.issuer);
    const problem = issuerProblem(issuer, allowed);
    if (problem === 'https_only') throw new RuleError(m.issuerInvalid);
    if (problem === 'private') throw new RuleError(m.issuerUnreachable(`${bare(issuer.hostname)} is a private or loopback address`));
    const stored = await db
      .selectFrom('identity_providers')
      .select(['client_secret_sealed'])
      .where('organization_id', '=', org.id)
      .executeTakeFirst();
    const secret = input.client_secret ?? (stored ? sealer.open(stored.client_secret_sealed) : null);
    if (!secret) throw new RuleError(m.clientSecretRequired);
    // Outside the transaction: the provider may take seconds to answer.
    try {
      await oidc.discover(input.issuer, input.client_id, secret);
    } catch (error) {
      if (error instanceof ProviderUnreachable) throw new RuleError(m.issuerUnreachable(error.message));
      throw error;
    }
    return db.transaction().execute(async (trx) => {
      await manageableOrganization(caller, id, trx);
      const before = await trx
        .selectFrom('identity_providers')
        .select(['issuer', 'client_id', 'client_secret_sealed', 'email_claim', 'name_claim'])
        .where('organization_id', '=', org.id)
        .forUpdate()
        .executeTakeFirst();
      const sameClient = before && before.issuer === input.issuer && before.client_id === input.client_id && !input.client_secret;
      const values = {
        issuer: input.issuer,
        client_id: input.client_id,
        client_secret_sealed: input.client_secret || !before ? sealer.seal(secret) : before.client_secret_sealed,
        email_claim: input.email_claim,
        name_claim: input.name_claim,
        // A test of another provider or client says nothing about this one.
        ...(!sameClient && { tested_at: null }),
        updated_by: caller.userId,
        updated_at: sql<string>`now()`,
      };
      await trx
        .insertInto('identity_providers')
        .values({ organization_id: org.id, ...values })
        .onConflict((oc) => oc.column('organization_id').doUpdateSet(values))
        .execute();
      await auditAction(trx, caller, info, {
        organizationId: org.id,
        action: 'identity.provider_set',
        targetType: 'organization',
        targetId: org.id,
        // Never the secret: only whether a new one was given.
        details: {
          issuer: input.issuer,
          client_id: input.client_id,
          email_claim: input.email_claim,
          name_claim: input.name_claim,
          secret_changed: input.client_secret !== undefined,
          ...(before && { before: { issuer: before.issuer, client_id: before.client_id } }),
        },
      });
      return readIdentity(org, trx, config);
    });
  }

  /**
   * Removes the provider: its people sign in with passwords again, so enforcement (kept on
   * the provider's row, with the just-in-time role and the break-glass admin) ends with it.
   * Sign-ins still pending at the provider are dropped.
   */
  async function remove(caller: Caller, id: string, info: ClientInfo): Promise<IdentityView> {
    return db.transaction().execute(async (trx) => {
      const org = await manageableOrganization(caller, id, trx);
      const removed = await trx
        .deleteFrom('identity_providers')
        .where('organization_id', '=', org.id)
        .returning(['issuer', 'client_id', 'enforce_sso'])
        .executeTakeFirst();
      if (!removed) throw new RuleError(m.providerNotFound);
      await trx.deleteFrom('sso_sign_ins').where('organization_id', '=', org.id).execute();
      await auditAction(trx, caller, info, {
        organizationId: org.id,
        action: 'identity.provider_removed',
        targetType: 'organization',
        targetId: org.id,
        details: { issuer: removed.issuer, client_id: removed.client_id, was_enforced: removed.enforce_sso },
      });
      return readIdentity(org, trx, config);
    });
  }

  return { set, remove };
}
