import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MESSAGES,
  SESSION,
  okSchema,
  passwordBodySchema,
  recoverBodySchema,
  recoverResponseSchema,
  sessionSchema,
  signInBodySchema,
} from '@console/domain';
import { callerOf } from '../../lib/caller.ts';
import { limitBy } from '../../lib/rate-limit.ts';
import { clearSessionCookie, sendSession } from '../../lib/session-cookie.ts';
import type { AppContext } from '../../app.ts';
import type { IssuedSession } from './auth.service.ts';
import { clientInfo } from '../../lib/request-info.ts';


const emailKey = (request: FastifyRequest) => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : null;
};

export function authRoutes({ auth, authenticate, config, rateLimits }: AppContext): FastifyPluginAsyncZod {
  const secure = config.appUrl.startsWith('https://');
  const send = (reply: FastifyReply, issued: IssuedSession) => sendSession(reply, issued, secure);

  return async (app) => {
    const windowSeconds = rateLimits.windowSeconds;
    const signInLimit = limitBy(app, [
      { name: 'sign-in:address', max: rateLimits.signInPerAddress, windowSeconds, key: (r) => r.ip },
      { name: 'sign-in:email', max: rateLimits.signInPerEmail, windowSeconds, key: emailKey },
    ]);
    const recoverLimit = limitBy(app, [
      { name: 'recover:address', max: rateLimits.recoverPerAddress, windowSeconds, key: (r) => r.ip },
      { name: 'recover:email', max: rateLimits.recoverPerEmail, windowSeconds, key: emailKey },
    ]);

    app.post(
      '/auth/sign-in',
      {
        preHandler: signInLimit,
        schema: {
          tags: ['auth'],
          summary: 'Sign in with e-mail and password',
          body: signInBodySchema,
          response: { 200: sessionSchema },
        },
      },
      async (request, reply) =>
        send(reply, await auth.signIn(request.body.email, request.body.password, clientInfo(request))),
    );

    app.post(
      '/auth/refresh',
      {
        schema: {
          tags: ['auth'],
          summary: 'Rotate the refresh cookie and get a new access token',
          response: { 200: sessionSchema },
        },
      },
      async (request, reply) => {
        try {
          return send(reply, await auth.refresh(request.cookies[SESSION.refreshCookie]));
        } catch (error) {
          clearSessionCookie(reply);
          throw error;
        }
      },
    );

    app.post(
      '/auth/sign-out',
      { schema: { tags: ['auth'], summary: 'End the current session', response: { 200: okSchema } } },
      async (request, reply) => {
        // An expired access token must not stop a sign-out: the cookie names the session too.
        await authenticate(request).catch(() => undefined);
        await auth.signOut(request.cookies[SESSION.refreshCookie], request.caller);
        clearSessionCookie(reply);
        return { ok: true as const };
      },
    );

    app.post(
      '/auth/recover',
      {
        preHandler: recoverLimit,
        schema: {
          tags: ['auth'],
          summary: 'Send a password reset link (same answer whether or not the account exists)',
          body: recoverBodySchema,
          response: { 200: recoverResponseSchema },
        },
      },
      async (request) => {
        await auth.recover(request.body.email, clientInfo(request));
        return { message: MESSAGES.auth.resetSent };
      },
    );

    app.post(
      '/auth/password',
      {
        preHandler: recoverLimit,
        schema: {
          tags: ['auth'],
          summary: 'Set a new password with a reset token, or change it when signed in',
          body: passwordBodySchema,
          response: { 200: okSchema },
        },
      },
      async (request, reply) => {
        const { password, token } = request.body;
        if (token) {
          await auth.resetPassword(token, password, clientInfo(request));
          clearSessionCookie(reply);
        } else {
          await authenticate(request);
          await auth.changePassword(callerOf(request), password, clientInfo(request));
        }
        return { ok: true as const };
      },
    );
  };
}
