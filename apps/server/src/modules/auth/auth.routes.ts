import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES, SESSION, authEndpoints as endpoints } from '@console/domain';
import { callerOf } from '../../lib/caller.ts';
import { limitBy } from '../../lib/rate-limit.ts';
import { clientInfo } from '../../lib/request-info.ts';
import { routerOf } from '../../lib/route.ts';
import { clearSessionCookie, sendSession } from '../../lib/session-cookie.ts';
import type { AppContext } from '../../context.ts';
import type { IssuedSession } from './auth.service.ts';

const emailKey = (request: FastifyRequest) => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : null;
};

/**
 * An account's sign-in attempts are counted per client address: guesses from one address
 * stop there, and nobody can lock the owner, signing in from elsewhere, out of their account.
 */
const accountAndAddressKey = (request: FastifyRequest) => {
  const email = emailKey(request);
  return email === null ? null : `${email} ${request.ip}`;
};

export function authRoutes({ auth, authenticate, config, rateLimits }: AppContext): FastifyPluginAsync {
  const secure = config.appUrl.startsWith('https://');
  const send = (reply: FastifyReply, issued: IssuedSession) => sendSession(reply, issued, secure);

  return async (app) => {
    const route = routerOf(app, authenticate);
    const windowSeconds = rateLimits.windowSeconds;
    const signInLimit = limitBy(app, [
      { name: 'sign-in:address', max: rateLimits.signInPerAddress, windowSeconds, key: (r) => r.ip },
      { name: 'sign-in:email-address', max: rateLimits.signInPerEmail, windowSeconds, key: accountAndAddressKey },
    ]);
    const recoverLimit = limitBy(app, [
      { name: 'recover:address', max: rateLimits.recoverPerAddress, windowSeconds, key: (r) => r.ip },
      { name: 'recover:email', max: rateLimits.recoverPerEmail, windowSeconds, key: emailKey },
    ]);
    // Checking the current password is a guess like a sign-in: the signed-in account gets as many.
    const passwordChangeLimit = limitBy(app, [
      { name: 'password-change:account', max: rateLimits.signInPerEmail, windowSeconds, key: (r) => r.caller?.userId ?? null },
    ]);
    // Recovery mail still being sent when the app closes is given a few seconds to finish.
    app.addHook('onClose', async () => auth.settle());

    // Second-factor codes per client address; the person's allowance is counted by the service.
    const secondFactorLimit = limitBy(app, [
      { name: 'second-factor:address', max: rateLimits.secondFactorPerAddress, windowSeconds, key: (r) => r.ip },
    ]);

    // A step-up is a guess like a sign-in or a second factor: bounded per person and per address.
    const stepUpLimit = limitBy(app, [
      { name: 'step-up:account', max: rateLimits.signInPerEmail, windowSeconds, key: (r) => r.caller?.userId ?? null },
      { name: 'step-up:address', max: rateLimits.secondFactorPerAddress, windowSeconds, key: (r) => r.ip },
    ]);
    route(endpoints.stepUpStatus, async ({ caller }) => auth.stepUpStatus(caller));
    route(endpoints.stepUp, async ({ caller, body, raw }) => auth.stepUp(caller, body, clientInfo(raw)), { onRequest: [stepUpLimit] });

    // A person with a second factor gets a challenge and no cookie; the session starts with its answer.
    route(
      endpoints.signIn,
      async ({ body, raw }, reply) => {
        const result = await auth.signIn(body.email, body.password, clientInfo(raw));
        return 'mfa_required' in result ? result : send(reply, result);
      },
      { onRequest: [signInLimit] },
    );

    route(endpoints.secondFactor, async ({ body, raw }, reply) => send(reply, await auth.answerChallenge(body, clientInfo(raw))), {
      onRequest: [secondFactorLimit],
    });

    // Passkeys: options and passwordless sign-ins are counted per address like sign-ins.
    const passkeyLimit = limitBy(app, [
      { name: 'passkey-sign-in:address', max: rateLimits.signInPerAddress, windowSeconds, key: (r) => r.ip },
    ]);
    route(endpoints.passkeyOptions, async ({ body }) => auth.passkeyOptions(body.challenge_token), { onRequest: [passkeyLimit] });
    route(endpoints.passkeySignIn, async ({ body, raw }, reply) => send(reply, await auth.passkeySignIn(body.response, clientInfo(raw))), {
      onRequest: [passkeyLimit],
    });

    route(endpoints.refresh, async ({ raw }, reply) => {
      try {
        return send(reply, await auth.refresh(raw.cookies[SESSION.refreshCookie]));
      } catch (error) {
        clearSessionCookie(reply);
        throw error;
      }
    });

    route(endpoints.signOut, async ({ raw }, reply) => {
      // An expired access token must not stop a sign-out: the cookie names the session too.
      await authenticate(raw).catch(() => undefined);
      await auth.signOut(raw.cookies[SESSION.refreshCookie], raw.caller);
      clearSessionCookie(reply);
      return { ok: true as const };
    });

    route(
      endpoints.recover,
      async ({ body, raw }, reply) => {
        // Nothing about the account is looked up before the answer has gone: a known and an
        // unknown e-mail, a working and a broken mail server, all answer alike and at once.
        const client = clientInfo(raw);
        reply.raw.once('close', () => auth.requestRecovery(body.email, client, raw.log));
        return { message: MESSAGES.auth.resetSent };
      },
      { onRequest: [recoverLimit] },
    );

    // With a reset token anyone sets a new password; without one, the signed-in caller changes theirs.
    route(
      endpoints.password,
      async ({ body, raw }, reply) => {
        if (body.token) {
          await auth.resetPassword(body.token, body.password, clientInfo(raw));
          clearSessionCookie(reply);
        } else {
          await authenticate(raw);
          await passwordChangeLimit(raw, reply);
          // The schema requires the current password whenever there is no token.
          await auth.changePassword(callerOf(raw), body.current_password ?? '', body.password, clientInfo(raw));
        }
        return { ok: true as const };
      },
      { onRequest: [recoverLimit] },
    );
  };
}
