import type { FastifyPluginAsync } from 'fastify';
import { organizationsEndpoints as endpoints } from '@console/domain';
import { clientInfo } from '../../lib/request-info.ts';
import { routerOf } from '../../lib/route.ts';
import { requireStepUpAbove } from '../../lib/step-up.ts';
import type { AppContext } from '../../context.ts';

export function organizationsRoutes({ organizations, credits, authenticate }: AppContext): FastifyPluginAsync {
  return async (app) => {
    const route = routerOf(app, authenticate);
    route(endpoints.list, async ({ caller, query }) => organizations.list(caller, query));
    route(endpoints.tree, async ({ caller, query }) => organizations.tree(caller, query.organization_id));
    route(endpoints.create, async ({ caller, body, raw }, reply) => {
      const info = clientInfo(raw);
      const { initial_balance: initialBalance } = body;
      const organization = await organizations.create(
        caller,
        body,
        info,
        // Credits moved into the new child above the house's threshold ask for a step-up, as an
        // allocation does; checked once the caller may create it, and the creation rolls back.
        initialBalance
          ? async (trx, child) => {
              await requireStepUpAbove(trx, caller, initialBalance);
              return credits.moveInitialBalance(trx, caller, child, initialBalance, info);
            }
          : undefined,
      );
      return reply.code(201).send({ organization });
    });
    route(endpoints.get, async ({ caller, params }) => ({ organization: await organizations.get(caller, params.id) }));
    route(endpoints.update, async ({ caller, params, body, raw }) => ({
      organization: await organizations.update(caller, params.id, body, clientInfo(raw)),
    }));
    route(endpoints.remove, async ({ caller, params, raw }, reply) => {
      await organizations.remove(caller, params.id, clientInfo(raw));
      return reply.code(204).send();
    });
    route(endpoints.verifyChildren, async ({ caller, params }) => organizations.verifyChildren(caller, params.id));
  };
}
