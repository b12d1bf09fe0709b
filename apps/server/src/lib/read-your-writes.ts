import { AsyncResource } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ReadRouting, ReadScope, ReadTarget } from '../db/read-pool.ts';
import './caller.ts';

/**
 * Read-your-writes across API hosts. After a person's successful write, the answer carries
 * the primary's WAL position in a short-lived cookie; any host, reading for a request that
 * brings it, waits (within a bound) for the replica to have replayed past that position and
 * otherwise reads the primary. Nothing about it lives in one process.
 */
export const READ_AFTER_COOKIE = 'read_after';
/** Long enough for any replica that keeps up; past it, a lagging replica would show the person an older state. */
export const READ_AFTER_SECONDS = 60;
/** A WAL position as PostgreSQL writes it (`16/B374D848`). */
const LSN = /^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/i;
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const PRIMARY: Promise<ReadTarget> = Promise.resolve('primary');

/** The WAL position a request's cookie names, or null (none, or not a position). */
export function readAfterOf(cookieHeader: string | undefined): string | null {
  for (const part of (cookieHeader ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === READ_AFTER_COOKIE) {
      const value = part.slice(at + 1).trim();
      return LSN.test(value) ? value : null;
    }
  }
  return null;
}

/** Installs the hooks that give every request its read scope and mark a person's writes; nothing when there is no replica. */
export function readYourWrites(app: FastifyInstance, routing: ReadRouting, options: { secure: boolean }): void {
  if (!routing.replica) return;
  const resources = new WeakMap<FastifyRequest, AsyncResource>();
  app.addHook('onRequest', (request, _reply, done) => {
    // A request that writes reads the primary: what it answers with must include its own write.
    const scope: ReadScope = WRITES.has(request.method)
      ? { afterLsn: null, target: PRIMARY }
      : { afterLsn: readAfterOf(request.headers.cookie) };
    routing.scopes.run(scope, () => {
      const resource = new AsyncResource('console-read-scope');
      resources.set(request, resource);
      resource.runInAsyncScope(done, request.raw);
    });
  });
  // A body is read in the socket's own async context: the steps after it are put back in the request's scope.
  app.addHook('preValidation', (request, _reply, done) => {
    const resource = resources.get(request);
    if (resource) resource.runInAsyncScope(done, request.raw);
    else done();
  });
  // A person's write that succeeded: its position goes back with the answer. A machine (API key) has no cookie jar.
  app.addHook('onSend', async (request, reply, payload) => {
    if (!WRITES.has(request.method) || reply.statusCode >= 400 || !request.caller) return payload;
    try {
      const lsn = await routing.primaryLsn();
      reply.header(
        'set-cookie',
        `${READ_AFTER_COOKIE}=${lsn}; Path=/; Max-Age=${READ_AFTER_SECONDS}; HttpOnly; SameSite=Lax${options.secure ? '; Secure' : ''}`,
      );
    } catch (error) {
      // The write stands; only this person's next reads may come from a replica that is behind it.
      request.log.warn({ err: error }, 'the primary did not say its WAL position after a write');
    }
    return payload;
  });
}
