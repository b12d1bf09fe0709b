import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createOrganizationSchema,
  idParamsSchema,
  listOrganizationsQuerySchema,
  organizationDetailSchema,
  organizationListSchema,
  treeQuerySchema,
  treeSchema,
  updateOrganizationSchema,
  verifyChildrenSchema,
} from '@console/domain';
import { callerOf } from '../../lib/caller.ts';
import { clientInfo } from '../../lib/request-info.ts';
import type { AppContext } from '../../app.ts';

const tags = ['organizations'];

export function organizationsRoutes({ organizations, credits, authenticate }: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('preHandler', authenticate);

    app.get(
      '/organizations',
      {
        schema: {
          tags,
          summary: 'Children or descendants of an organization in scope, filtered and paged',
          querystring: listOrganizationsQuerySchema,
          response: { 200: organizationListSchema },
        },
      },
      async (request) => organizations.list(callerOf(request), request.query),
    );

    app.get(
      '/organizations/tree',
      {
        schema: {
          tags,
          summary: 'One level of the hierarchy with counts (expanded on demand)',
          querystring: treeQuerySchema,
          response: { 200: treeSchema },
        },
      },
      async (request) => organizations.tree(callerOf(request), request.query.organization_id),
    );

    app.post(
      '/organizations',
      {
        schema: {
          tags,
          summary: "Create a direct child of the caller's organization, optionally with credits moved from it",
          body: createOrganizationSchema,
          response: { 201: organizationDetailSchema },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const info = clientInfo(request);
        const { initial_balance: initialBalance } = request.body;
        const organization = await organizations.create(
          caller,
          request.body,
          info,
          initialBalance ? (trx, child) => credits.moveInitialBalance(trx, caller, child, initialBalance, info) : undefined,
        );
        return reply.code(201).send({ organization });
      },
    );

    app.get(
      '/organizations/:id',
      {
        schema: { tags, summary: 'One organization with its billing settings', params: idParamsSchema, response: { 200: organizationDetailSchema } },
      },
      async (request) => ({ organization: await organizations.get(callerOf(request), request.params.id) }),
    );

    app.patch(
      '/organizations/:id',
      {
        schema: {
          tags,
          summary: 'Update name, description, status or disable_parent_invites (own organization or a direct child)',
          params: idParamsSchema,
          body: updateOrganizationSchema,
          response: { 200: organizationDetailSchema },
        },
      },
      async (request) => ({
        organization: await organizations.update(callerOf(request), request.params.id, request.body, clientInfo(request)),
      }),
    );

    app.delete(
      '/organizations/:id',
      { schema: { tags, summary: 'Soft-delete an empty child organization (admins of its parent)', params: idParamsSchema } },
      async (request, reply) => {
        await organizations.remove(callerOf(request), request.params.id, clientInfo(request));
        return reply.code(204).send();
      },
    );

    app.get(
      '/organizations/:id/verify-children',
      {
        schema: {
          tags,
          summary: 'Debug: direct children against the descendant procedure',
          params: idParamsSchema,
          response: { 200: verifyChildrenSchema },
        },
      },
      async (request) => organizations.verifyChildren(callerOf(request), request.params.id),
    );
  };
}
