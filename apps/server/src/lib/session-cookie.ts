import type { FastifyReply } from 'fastify';
import { SESSION, type Session } from '@console/domain';

export const REFRESH_COOKIE_PATH = '/api/auth';

/**
 * Sets the httpOnly refresh cookie and gives the session body to send. The cookie is
 * Secure when the console is configured on https or the request itself came over https
 * (X-Forwarded-Proto counts only with TRUST_PROXY).
 */
export function sendSession(reply: FastifyReply, issued: { session: Session; refreshToken: string }, secure: boolean): Session {
  reply.setCookie(SESSION.refreshCookie, issued.refreshToken, {
    httpOnly: true,
    sameSite: 'strict',
    secure: secure || reply.request.protocol === 'https',
    path: REFRESH_COOKIE_PATH,
    maxAge: SESSION.refreshTokenTtlSeconds,
  });
  return issued.session;
}

export function clearSessionCookie(reply: FastifyReply) {
  reply.clearCookie(SESSION.refreshCookie, { path: REFRESH_COOKIE_PATH });
}
