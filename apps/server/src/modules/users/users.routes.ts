import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { userProfileSchema } from '@console/domain';
import { callerOf } from '../../lib/caller.ts';
import type { AppContext } from '../../app.ts';

export function usersRoutes({ users, authenticate }: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/users/me',
      {
        preHandler: authenticate,
        schema: { tags: ['users'], summary: 'The signed-in user', response: { 200: userProfileSchema } },
      },
      async (request) => users.getProfile(callerOf(request).userId),
    );
  };
}
