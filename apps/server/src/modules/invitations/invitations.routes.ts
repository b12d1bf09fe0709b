import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  acceptInvitationSchema,
  acceptResultSchema,
  createInvitationSchema,
  idParamsSchema,
  invitationLinkSchema,
  invitationListSchema,
  invitationResponseSchema,
  listInvitationsQuerySchema,
  registerInvitationSchema,
  sessionSchema,
} from '@console/domain';
import { callerOf } from '../../lib/caller.ts';
import { limitBy } from '../../lib/rate-limit.ts';
import { clientInfo } from '../../lib/request-info.ts';
import { sendSession } from '../../lib/session-cookie.ts';
import type { AppContext } from '../../app.ts';

const tags = ['invitations'];

export function invitationsRoutes({ invitations, authenticate, config, rateLimits }: AppContext): FastifyPluginAsyncZod {
  const secure = config.appUrl.startsWith('https://');
  return async (app) => {
    // The public acceptance calls share the recovery limit per address: tokens are not guessable,
    // but nobody should be able to try.
    const publicLimit = limitBy(app, [
      { name: 'invitation:address', max: rateLimits.recoverPerAddress * 3, windowSeconds: rateLimits.windowSeconds, key: (r) => r.ip },
    ]);

    app.post(
      '/invitations/accept',
      {
        preHandler: publicLimit,
        schema: {
          tags,
          summary: 'Read an invitation token: register, sign in first, or join (with a bearer)',
          body: acceptInvitationSchema,
          response: { 200: acceptResultSchema },
        },
      },
      async (request) => {
        // Signed in or not: a bad or expired bearer is treated as signed out.
        await authenticate(request).catch(() => undefined);
        return invitations.accept(request.body.token, request.caller, clientInfo(request));
      },
    );

    app.post(
      '/invitations/register',
      {
        preHandler: publicLimit,
        schema: {
          tags,
          summary: 'Create the invited account and sign it in',
          body: registerInvitationSchema,
          response: { 200: sessionSchema },
        },
      },
      async (request, reply) =>
        sendSession(reply, await invitations.register(request.body.token, request.body.password, clientInfo(request)), secure),
    );

    app.get(
      '/invitations',
      {
        preHandler: authenticate,
        schema: {
          tags,
          summary: 'Invitations of an organization in scope, newest first',
          querystring: listInvitationsQuerySchema,
          response: { 200: invitationListSchema },
        },
      },
      async (request) => invitations.list(callerOf(request), request.query),
    );

    app.post(
      '/invitations',
      {
        preHandler: authenticate,
        schema: {
          tags,
          summary: 'Invite someone into your organization or a direct child; the link is mailed',
          body: createInvitationSchema,
          response: { 201: invitationResponseSchema },
        },
      },
      async (request, reply) =>
        reply.code(201).send({ invitation: await invitations.create(callerOf(request), request.body, clientInfo(request)) }),
    );

    app.post(
      '/invitations/:id/resend',
      { preHandler: authenticate, schema: { tags, summary: 'Mail a fresh link (the old one stops working)', params: idParamsSchema, response: { 200: invitationResponseSchema } } },
      async (request) => ({ invitation: await invitations.resend(callerOf(request), request.params.id, clientInfo(request)) }),
    );

    app.post(
      '/invitations/:id/link',
      { preHandler: authenticate, schema: { tags, summary: 'Make a fresh link to copy (the old one stops working)', params: idParamsSchema, response: { 200: invitationLinkSchema } } },
      async (request) => invitations.link(callerOf(request), request.params.id, clientInfo(request)),
    );

    app.delete(
      '/invitations/:id',
      { preHandler: authenticate, schema: { tags, summary: 'Revoke a pending invitation', params: idParamsSchema, response: { 200: invitationResponseSchema } } },
      async (request) => ({ invitation: await invitations.revoke(callerOf(request), request.params.id, clientInfo(request)) }),
    );
  };
}
