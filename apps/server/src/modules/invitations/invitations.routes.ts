import type { FastifyPluginAsync } from 'fastify';
import { invitationsEndpoints as endpoints } from '@console/domain';
import { limitBy } from '../../lib/rate-limit.ts';
import { clientInfo } from '../../lib/request-info.ts';
import { routerOf } from '../../lib/route.ts';
import { sendSession } from '../../lib/session-cookie.ts';
import type { AppContext } from '../../context.ts';

export function invitationsRoutes({ invitations, authenticate, config, rateLimits }: AppContext): FastifyPluginAsync {
  const secure = config.appUrl.startsWith('https://');
  return async (app) => {
    const route = routerOf(app, authenticate);
    // The public acceptance calls share the recovery limit per address: tokens are not guessable,
    // but nobody should be able to try.
    const publicLimit = limitBy(app, [
      { name: 'invitation:address', max: rateLimits.recoverPerAddress * 3, windowSeconds: rateLimits.windowSeconds, key: (r) => r.ip },
    ]);

    route(
      endpoints.accept,
      async ({ body, raw }) => {
        // Signed in or not: a bad or expired bearer is treated as signed out.
        await authenticate(raw).catch(() => undefined);
        return invitations.accept(body.token, body.confirm === true, raw.caller, clientInfo(raw));
      },
      { onRequest: [publicLimit] },
    );
    route(
      endpoints.register,
      async ({ body, raw }, reply) => sendSession(reply, await invitations.register(body.token, body.password, clientInfo(raw)), secure),
      { onRequest: [publicLimit] },
    );
    route(endpoints.list, async ({ caller, query }) => invitations.list(caller, query));
    route(endpoints.create, async ({ caller, body, raw }, reply) =>
      reply.code(201).send({ invitation: await invitations.create(caller, body, clientInfo(raw)) }),
    );
    route(endpoints.resend, async ({ caller, params, raw }) => ({
      invitation: await invitations.resend(caller, params.id, clientInfo(raw)),
    }));
    route(endpoints.link, async ({ caller, params, raw }) => invitations.link(caller, params.id, clientInfo(raw)));
    route(endpoints.revoke, async ({ caller, params, raw }) => ({
      invitation: await invitations.revoke(caller, params.id, clientInfo(raw)),
    }));
  };
}
