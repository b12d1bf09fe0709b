import type { Caller } from '../../lib/caller.ts';
import { RuleError } from '../../lib/errors.ts';
import { ProviderUnreachable } from './oidc.ts';
import { beginSignIn } from './pending.ts';
import { manageableOrganization, m, redirectUriOf, type IdentityDeps } from './queries.ts';

/**
 * A test sign-in at the organization's provider, started by one of its admins: it proves the
 * registration works end to end (discovery, login, token, claims) before anyone depends on it,
 * and comes back to the Identity page without starting a session. No domain is needed.
 */
export function createTestSignIn({ db, config, sealer, oidc }: IdentityDeps) {
  async function test(caller: Caller, id: string, browser: string): Promise<{ redirect_url: string }> {
    const org = await manageableOrganization(caller, id, db);
    const registration = await db
      .selectFrom('identity_providers')
      .select(['organization_id', 'issuer', 'client_id', 'client_secret_sealed', 'updated_at'])
      .where('organization_id', '=', org.id)
      .executeTakeFirst();
    if (!registration) throw new RuleError(m.noProvider);
    try {
      const configuration = await oidc.configurationFor(registration);
      const redirect_url = await beginSignIn(db, sealer, configuration, registration, redirectUriOf(config.appUrl), {
        email: caller.email,
        testedBy: caller.userId,
        browser,
      });
      return { redirect_url };
    } catch (error) {
      if (error instanceof ProviderUnreachable) throw new RuleError(m.issuerUnreachable(error.message));
      throw error;
    }
  }
  return { test };
}
