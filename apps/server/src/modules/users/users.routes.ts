import type { FastifyPluginAsync } from 'fastify';
import { usersEndpoints as endpoints } from '@console/domain';
import { clientInfo } from '../../lib/request-info.ts';
import { routerOf } from '../../lib/route.ts';
import type { AppContext } from '../../context.ts';

export function usersRoutes({ users, authenticate }: AppContext): FastifyPluginAsync {
  return async (app) => {
    const route = routerOf(app, authenticate);
    route(endpoints.list, async ({ caller, query }) => users.list(caller, query));
    route(endpoints.me, async ({ caller }) => users.getProfile(caller.userId, undefined, caller.sessionMethod));
    route(endpoints.updateMe, async ({ caller, body, raw }) => ({ user: await users.updateMe(caller, body, clientInfo(raw)) }));
    route(endpoints.get, async ({ caller, params }) => ({ user: await users.get(caller, params.id) }));
    route(endpoints.update, async ({ caller, params, body, raw }) => ({
      user: await users.update(caller, params.id, body, clientInfo(raw)),
    }));
    route(endpoints.changeRole, async ({ caller, params, body, raw }) => ({
      user: await users.changeRole(caller, params.id, body.role, clientInfo(raw)),
    }));
    route(endpoints.deactivate, async ({ caller, params, raw }) => ({
      user: await users.deactivate(caller, params.id, clientInfo(raw)),
    }));
    route(endpoints.endSessions, async ({ caller, params, raw }) => users.endSessions(caller, params.id, clientInfo(raw)));
    route(endpoints.resetFactors, async ({ caller, params, raw }) => users.resetFactors(caller, params.id, clientInfo(raw)));
  };
}
