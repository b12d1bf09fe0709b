import type { FastifyPluginAsync } from 'fastify';
import { identityEndpoints as endpoints } from '@console/domain';
import type { AppContext } from '../../context.ts';
import { limitBy } from '../../lib/rate-limit.ts';
import { clientInfo } from '../../lib/request-info.ts';
import { routerOf } from '../../lib/route.ts';
import { sendSession } from '../../lib/session-cookie.ts';
import { bindBrowser, browserBinding } from './browser-binding.ts';
import { createSsoCallback } from './callback.ts';
import { createDiscover } from './discover.ts';
import { createIdentityDomains } from './domains.ts';
import { createOidcClients } from './oidc.ts';
import { pendingDomainClaims } from './pending-claims.ts';
import { createProviderRegistration } from './provider.ts';
import {
  identityOrganization,
  manageableOrganization,
  readIdentity,
  redirectUriOf,
  type IdentityDeps,
  type IdentityOrg,
} from './queries.ts';
import { createIdentitySettings } from './settings.ts';
import { createSsoStepUp } from './step-up.ts';
import { createTestSignIn } from './test-sign-in.ts';

export function identityRoutes({ db, config, auth, authenticate, rateLimits, identitySealer }: AppContext): FastifyPluginAsync {
  const oidc = createOidcClients({ identityAllowedHosts: config.identityAllowedHosts, sealer: identitySealer });
  const deps: IdentityDeps = { db, config, sealer: identitySealer, oidc };
  const provider = createProviderRegistration(deps);
  const { update } = createIdentitySettings(deps);
  const { test } = createTestSignIn(deps);
  const { discover } = createDiscover(deps);
  const { callback } = createSsoCallback({ ...deps, startSession: auth.startSession });
  const stepUp = createSsoStepUp(deps);
  const domains = createIdentityDomains({ db, config });
  const secure = config.appUrl.startsWith('https://');
  const read = (org: IdentityOrg) => readIdentity(org, db, config);

  return async (app) => {
    const route = routerOf(app, authenticate);
    const windowSeconds = rateLimits.windowSeconds;
    // Each starts a sign-in (a stored row, a request to the provider when not cached): counted per address like sign-ins.
    const discoverLimit = limitBy(app, [
      { name: 'sso-discover:address', max: rateLimits.signInPerAddress, windowSeconds, key: (r) => r.ip },
    ]);
    // A step-up through the provider starts a sign-in there for the signed-in person: counted per person, like other step-ups.
    const stepUpLimit = limitBy(app, [
      { name: 'sso-step-up:account', max: rateLimits.signInPerEmail, windowSeconds, key: (r) => r.caller?.userId ?? null },
    ]);
    const callbackLimit = limitBy(app, [
      { name: 'sso-callback:address', max: rateLimits.signInPerAddress, windowSeconds, key: (r) => r.ip },
    ]);
    // Registering a provider and testing it make the server call the provider: counted per admin.
    const outboundLimit = limitBy(app, [
      { name: 'sso-provider:account', max: rateLimits.signInPerAddress, windowSeconds, key: (r) => r.caller?.userId ?? null },
    ]);

    route(endpoints.get, async ({ caller, params }) => read(await identityOrganization(caller, params.id, db)));
    route(endpoints.setProvider, async ({ caller, params, body, raw }) => provider.set(caller, params.id, body, clientInfo(raw)), {
      onRequest: [outboundLimit],
    });
    route(endpoints.removeProvider, async ({ caller, params, raw }) => provider.remove(caller, params.id, clientInfo(raw)));
    route(endpoints.updateSettings, async ({ caller, params, body, raw }) => update(caller, params.id, body, clientInfo(raw)));
    route(endpoints.test, async ({ caller, params, raw }, reply) => test(caller, params.id, bindBrowser(raw, reply, secure)), {
      onRequest: [outboundLimit],
    });

    route(endpoints.claimDomain, async ({ caller, params, body, raw }, reply) => {
      const org = await manageableOrganization(caller, params.id, db);
      await domains.claim(caller, org, body, clientInfo(raw));
      return reply.code(201).send(await read(org));
    });
    // Each check asks a DNS server: counted per admin, like the other calls the server makes for them.
    route(
      endpoints.verifyDomain,
      async ({ caller, params, raw }) => {
        const org = await manageableOrganization(caller, params.id, db);
        await domains.verify(caller, org, params.domainId, clientInfo(raw));
        return read(org);
      },
      { onRequest: [outboundLimit] },
    );
    route(endpoints.pendingClaims, async ({ caller }) => pendingDomainClaims(caller, db));
    // A house admin approves another organization's claim: `approve` loads that organization and checks who may.
    route(endpoints.approveDomain, async ({ caller, params, raw }) => {
      await domains.approve(caller, params.id, params.domainId, clientInfo(raw));
      return { ok: true as const };
    });
    route(endpoints.removeDomain, async ({ caller, params, raw }) => {
      const org = await manageableOrganization(caller, params.id, db);
      await domains.remove(caller, org, params.domainId, clientInfo(raw));
      return read(org);
    });

    route(endpoints.discover, async ({ body, raw }, reply) => discover(body.email, () => bindBrowser(raw, reply, secure), raw.log), {
      onRequest: [discoverLimit],
    });
    route(
      endpoints.stepUp,
      async ({ caller, body, raw }, reply) => stepUp.start(caller, body.return_to, () => bindBrowser(raw, reply, secure), raw.log),
      { onRequest: [stepUpLimit] },
    );
    // The browser arrives here from the provider: it is sent on to the console (signed in) or back to the sign-in page.
    route(
      endpoints.callback,
      async ({ raw }, reply) => {
        const at = raw.url.indexOf('?');
        const currentUrl = new URL(redirectUriOf(config.appUrl) + (at < 0 ? '' : raw.url.slice(at)));
        const outcome = await callback(currentUrl, browserBinding(raw), clientInfo(raw));
        // The console then boots by refreshing with this cookie, as after a password sign-in.
        if (outcome.session) sendSession(reply, outcome.session, secure);
        return reply.redirect(outcome.location, 302);
      },
      { onRequest: [callbackLimit] },
    );
  };
}
