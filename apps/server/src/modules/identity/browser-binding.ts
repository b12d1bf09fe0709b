import type { FastifyReply, FastifyRequest } from 'fastify';
import { IDENTITY } from '@console/domain';
import { randomToken } from '../../lib/secrets.ts';

const COOKIE = 'sso_browser';
const PATH = '/api/auth/sso';
const VALUE = /^[\w-]{43}$/;

/**
 * A random value in a cookie of the browser that starts a sign-in, mixed into the stored
 * hash of each state it starts: the provider's answer signs in only the browser that asked.
 * Without it, someone could start a sign-in, log in at the provider as themselves, and send
 * the callback link to another person, who would then work in the console as them.
 * SameSite=Lax: the provider's answer is a top-level navigation from another site, which
 * Lax cookies (not Strict ones) accompany. The same value serves every sign-in of the
 * browser (two tabs at once), for as long as a sign-in may take.
 */
export function bindBrowser(request: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const known = request.cookies[COOKIE];
  const value = known && VALUE.test(known) ? known : randomToken();
  reply.setCookie(COOKIE, value, {
    httpOnly: true,
    sameSite: 'lax',
    secure: secure || request.protocol === 'https',
    path: PATH,
    maxAge: IDENTITY.signInTtlSeconds,
  });
  return value;
}

/** The browser's value at the callback ('' when it has none: no pending sign-in matches). */
export const browserBinding = (request: FastifyRequest): string => {
  const value = request.cookies[COOKIE];
  return value && VALUE.test(value) ? value : '';
};
