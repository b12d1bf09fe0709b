import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  idParamsSchema,
  listUsersQuerySchema,
  updateMeSchema,
  updateRoleSchema,
  updateUserSchema,
  userListSchema,
  userProfileSchema,
  userResponseSchema,
} from '@console/domain';
import { callerOf } from '../../lib/caller.ts';
import { clientInfo } from '../../lib/request-info.ts';
import type { AppContext } from '../../app.ts';

const tags = ['users'];

export function usersRoutes({ users, authenticate }: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('preHandler', authenticate);

    app.get(
      '/users',
      {
        schema: {
          tags,
          summary: 'Users of an organization in scope, filtered, sorted and paged',
          querystring: listUsersQuerySchema,
          response: { 200: userListSchema },
        },
      },
      async (request) => users.list(callerOf(request), request.query),
    );

    app.get(
      '/users/me',
      { schema: { tags, summary: 'The signed-in user', response: { 200: userProfileSchema } } },
      async (request) => users.getProfile(callerOf(request).userId),
    );

    app.patch(
      '/users/me',
      {
        schema: { tags, summary: 'Update your own names and locale', body: updateMeSchema, response: { 200: userResponseSchema } },
      },
      async (request) => ({ user: await users.updateMe(callerOf(request), request.body, clientInfo(request)) }),
    );

    app.get(
      '/users/:id',
      { schema: { tags, summary: 'One user in scope', params: idParamsSchema, response: { 200: userResponseSchema } } },
      async (request) => ({ user: await users.get(callerOf(request), request.params.id) }),
    );

    app.patch(
      '/users/:id',
      {
        schema: {
          tags,
          summary: 'Update a user (admins and managers; status by admins only)',
          params: idParamsSchema,
          body: updateUserSchema,
          response: { 200: userResponseSchema },
        },
      },
      async (request) => ({
        user: await users.update(callerOf(request), request.params.id, request.body, clientInfo(request)),
      }),
    );

    app.put(
      '/users/:id/role',
      {
        schema: {
          tags,
          summary: "Change a user's role (a role of their organization's type)",
          params: idParamsSchema,
          body: updateRoleSchema,
          response: { 200: userResponseSchema },
        },
      },
      async (request) => ({
        user: await users.changeRole(callerOf(request), request.params.id, request.body.role, clientInfo(request)),
      }),
    );

    app.delete(
      '/users/:id',
      { schema: { tags, summary: 'Deactivate a user', params: idParamsSchema, response: { 200: userResponseSchema } } },
      async (request) => ({ user: await users.deactivate(callerOf(request), request.params.id, clientInfo(request)) }),
    );
  };
}
