import type { FastifyPluginAsync } from 'fastify';
import { accountEndpoints as endpoints } from '@console/domain';
import { limitBy } from '../../lib/rate-limit.ts';
import { clientInfo } from '../../lib/request-info.ts';
import { routerOf } from '../../lib/route.ts';
import type { AppContext } from '../../context.ts';

export function accountRoutes({ account, authenticate, rateLimits }: AppContext): FastifyPluginAsync {
  return async (app) => {
    const route = routerOf(app, authenticate);
    // The current password is a guess like a sign-in: counted with the password changes' guesses.
    const passwordLimit = limitBy(app, [
      {
        name: 'password-change:account',
        max: rateLimits.signInPerEmail,
        windowSeconds: rateLimits.windowSeconds,
        key: (r) => r.caller?.userId ?? null,
      },
    ]);

    route(endpoints.factors, async ({ caller }) => account.factorsOf(caller));
    route(endpoints.startTotp, async ({ caller, body }) => account.startTotp(caller, body.current_password), {
      onRequest: [passwordLimit],
    });
    route(endpoints.confirmTotp, async ({ caller, body, raw }) => account.confirmTotp(caller, body.code, clientInfo(raw)));
    route(endpoints.removeTotp, async ({ caller, body, raw }) => {
      await account.removeTotp(caller, body.code, clientInfo(raw));
      return { ok: true as const };
    });
    route(endpoints.regenerateRecoveryCodes, async ({ caller, body, raw }) =>
      account.regenerateRecoveryCodes(caller, body.code, clientInfo(raw)),
    );
    route(endpoints.sessions, async ({ caller }) => account.sessions(caller));
    route(endpoints.endSession, async ({ caller, params, raw }) => account.endSession(caller, params.sessionId, clientInfo(raw)));
    route(endpoints.endOtherSessions, async ({ caller, raw }) => account.endOtherSessions(caller, clientInfo(raw)));

    // Passkeys. Starting one asks for the password, counted like the app's setup.
    route(endpoints.passkeys, async ({ caller }) => account.passkeys(caller));
    route(
      endpoints.passkeyRegistrationOptions,
      async ({ caller, body }) => account.passkeyRegistrationOptions(caller, body.current_password),
      {
        onRequest: [passwordLimit],
      },
    );
    route(endpoints.addPasskey, async ({ caller, body, raw }) => account.addPasskey(caller, body, clientInfo(raw)));
    route(endpoints.renamePasskey, async ({ caller, params, body, raw }) =>
      account.renamePasskey(caller, params.passkeyId, body.name, clientInfo(raw)),
    );
    route(endpoints.passkeyCheckOptions, async ({ caller }) => account.passkeyCheckOptions(caller), { onRequest: [passwordLimit] });
    route(endpoints.removePasskey, async ({ caller, params, body, raw }) => {
      await account.removePasskey(caller, params.passkeyId, body, clientInfo(raw));
      return { ok: true as const };
    });
  };
}
