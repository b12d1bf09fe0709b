import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MetricsSettings } from '../../config.ts';
import { UnauthorizedError } from '../errors.ts';
import type { Metrics } from './metrics.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Whether the request carries `Authorization: Bearer <token>`. Both sides are hashed first,
 * so the comparison takes the same time whatever the length or the first differing byte.
 */
export function bearerMatches(request: Pick<FastifyRequest, 'headers'>, token: string): boolean {
  const header = request.headers.authorization ?? '';
  const sent = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
  return timingSafeEqual(digest(sent), digest(token)) && sent.length > 0;
}

/** Where the metrics listener of its own listens, once it does (tests ask for port 0). */
export interface MetricsListener {
  port(): number | null;
}

/**
 * Counts every answer of the app by its route's pattern (never the URL asked for) and serves
 * GET /metrics: on the app's own port behind the bearer token, or on a listener of its own,
 * opened when the app gets ready and closed with it.
 */
export function serveMetrics(app: FastifyInstance, metrics: Metrics, settings: MetricsSettings, host: string): MetricsListener {
  app.addHook('onResponse', async (request, reply) => {
    metrics.request(request.routeOptions.url ?? null, request.method, reply.statusCode, reply.elapsedTime / 1000);
  });
  if (settings.kind === 'token') {
    const { token } = settings;
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (!bearerMatches(request, token)) {
        void reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new UnauthorizedError();
      }
      return reply.type(metrics.contentType).send(await metrics.scrape());
    });
    return { port: () => null };
  }
  let server: Server | null = null;
  // Opened as the app gets ready (before it listens): a port in use stops the start.
  app.addHook('onReady', async () => {
    server = createServer((request, response) => {
      const path = (request.url ?? '').split('?')[0];
      if (request.method !== 'GET' || path !== '/metrics') {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the metrics are at GET /metrics\n');
        return;
      }
      metrics.scrape().then(
        (text) => response.writeHead(200, { 'content-type': metrics.contentType }).end(text),
        () => response.writeHead(500, { 'content-type': 'text/plain' }).end('The metrics could not be read\n'),
      );
    });
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen({ port: settings.port, host }, () => resolve());
    });
  });
  app.addHook('onClose', async () => {
    const open = server;
    server = null;
    if (!open) return;
    open.closeAllConnections();
    await new Promise((resolve) => open.close(resolve));
  });
  return { port: () => (server?.address() as AddressInfo | null)?.port ?? null };
}
