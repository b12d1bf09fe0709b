import type { FastifyPluginAsync } from 'fastify';
import { mfaPolicyEndpoints as endpoints } from '@console/domain';
import { clientInfo } from '../../lib/request-info.ts';
import { routerOf } from '../../lib/route.ts';
import { requireStepUp } from '../../lib/step-up.ts';
import type { AppContext } from '../../context.ts';
import { policyOrganization, readPolicy } from './queries.ts';
import { createMfaPolicyUpdate } from './update.ts';

export function mfaPolicyRoutes({ db, authenticate }: AppContext): FastifyPluginAsync {
  const { update } = createMfaPolicyUpdate({ db });
  return async (app) => {
    const route = routerOf(app, authenticate);
    route(endpoints.get, async ({ caller, params }) => readPolicy(await policyOrganization(caller, params.id, db), db));
    route(endpoints.update, async ({ caller, params, body, raw }) =>
      update(caller, params.id, body, clientInfo(raw), async (who) => requireStepUp(who)),
    );
  };
}
