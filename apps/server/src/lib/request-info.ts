import type { FastifyRequest } from 'fastify';

/** Where a request came from: for sessions and audit rows. */
export interface ClientInfo {
  ip: string;
  userAgent: string | null;
  requestId: string;
}

export function clientInfo(request: FastifyRequest): ClientInfo {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? null, requestId: request.id };
}
