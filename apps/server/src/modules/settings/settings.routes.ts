import type { FastifyPluginAsync } from 'fastify';
import { settingsEndpoints as endpoints } from '@console/domain';
import { clientInfo } from '../../lib/request-info.ts';
import { routerOf } from '../../lib/route.ts';
import type { AppContext } from '../../context.ts';
import { createSettingsService } from './settings.service.ts';

export function settingsRoutes({ db, authenticate }: AppContext): FastifyPluginAsync {
  const settings = createSettingsService({ db });
  return async (app) => {
    const route = routerOf(app, authenticate);
    route(endpoints.get, async () => settings.get());
    route(endpoints.getPublic, async () => settings.getPublic());
    route(endpoints.update, async ({ caller, body, raw }) => settings.update(caller, body, clientInfo(raw)));
  };
}
