import type { FastifyBaseLogger } from 'fastify';
import { MESSAGES, type SsoDiscoverResult } from '@console/domain';
import { UnavailableError } from '../../lib/errors.ts';
import { organizationClaimingEmail } from '../../lib/identity-domains.ts';
import { ProviderUnreachable, reasonOf } from './oidc.ts';
import { beginSignIn } from './pending.ts';
import { redirectUriOf, type IdentityDeps } from './queries.ts';

/**
 * How an e-mail signs in: an e-mail whose domain an organization has in effect, and whose
 * organization has a provider, goes to that provider (with the sign-in already pending);
 * any other e-mail uses its password. Whether a domain is claimed is public by design (the
 * sign-in page needs it), so the answer tells nothing about whether the person exists.
 */
export function createDiscover({ db, config, sealer, oidc }: IdentityDeps) {
  async function discover(email: string, bindBrowser: () => string, log: FastifyBaseLogger): Promise<SsoDiscoverResult> {
    const claim = await organizationClaimingEmail(db, email);
    if (!claim?.has_provider) return { method: 'password' };
    const registration = await db
      .selectFrom('identity_providers')
      .select(['organization_id', 'issuer', 'client_id', 'client_secret_sealed', 'updated_at', 'enforce_sso'])
      .where('organization_id', '=', claim.organization_id)
      .executeTakeFirst();
    if (!registration) return { method: 'password' };
    try {
      const configuration = await oidc.configurationFor(registration);
      const redirect_url = await beginSignIn(db, sealer, configuration, registration, redirectUriOf(config.appUrl), {
        email: email.trim(),
        testedBy: null,
        browser: bindBrowser(),
      });
      return { method: 'sso', organization_name: claim.organization_name, redirect_url };
    } catch (error) {
      if (!(error instanceof ProviderUnreachable)) throw error;
      // A provider that cannot be reached does not lock its people out where passwords still work.
      log.warn({ organizationId: registration.organization_id, reason: reasonOf(error) }, 'identity provider unreachable at sign-in');
      if (!registration.enforce_sso) return { method: 'password' };
      throw new UnavailableError(MESSAGES.identity.providerUnavailable);
    }
  }
  return { discover };
}
