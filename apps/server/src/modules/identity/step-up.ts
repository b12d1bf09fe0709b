import type { FastifyBaseLogger } from 'fastify';
import type { RedirectResult } from '@console/domain';
import type { Caller } from '../../lib/caller.ts';
import { RuleError, UnavailableError } from '../../lib/errors.ts';
import { ProviderUnreachable, reasonOf } from './oidc.ts';
import { beginSignIn } from './pending.ts';
import { m, redirectUriOf, type IdentityDeps } from './queries.ts';

/**
 * A step-up for a session that began at the organization's provider: the person has no
 * password or second factor here to give, so the provider is asked to have them log in again
 * (`prompt=login`, `max_age=0`). The pending sign-in names the session it will renew and the
 * console's page to come back to; the callback (step-up-callback.ts) checks that the same
 * person logged in just now, renews exactly that session, and sends the browser back there.
 */
export function createSsoStepUp({ db, config, sealer, oidc }: IdentityDeps) {
  async function start(caller: Caller, returnTo: string, bindBrowser: () => string, log: FastifyBaseLogger): Promise<RedirectResult> {
    if (caller.sessionMethod !== 'sso') throw new RuleError(m.stepUpNotSso, 'step_up_not_sso');
    const registration = await db
      .selectFrom('identity_providers')
      .select(['organization_id', 'issuer', 'client_id', 'client_secret_sealed', 'updated_at'])
      .where('organization_id', '=', caller.organization.id)
      .executeTakeFirst();
    if (!registration) throw new RuleError(m.stepUpNotSso, 'step_up_not_sso');
    try {
      const configuration = await oidc.configurationFor(registration);
      const redirect_url = await beginSignIn(db, sealer, configuration, registration, redirectUriOf(config.appUrl), {
        email: caller.email,
        testedBy: null,
        browser: bindBrowser(),
        stepUp: { sessionId: caller.sessionId, returnTo },
      });
      return { redirect_url };
    } catch (error) {
      if (!(error instanceof ProviderUnreachable)) throw error;
      log.warn({ organizationId: registration.organization_id, reason: reasonOf(error) }, 'identity provider unreachable at step-up');
      throw new UnavailableError(m.providerUnavailable);
    }
  }
  return { start };
}
