import { endpoint } from '../contract.ts';
import { outboxSchema } from '../schemas/debug.ts';

export const debugEndpoints = {
  outbox: endpoint({
    operationId: 'listOutbox',
    method: 'GET',
    path: '/debug/outbox',
    summary: 'Recent mail of the outbox (house admins; only when no SMTP server is set)',
    tags: ['debug'],
    auth: 'session',
    permission: 'debug.outbox',
    responses: { 200: outboxSchema },
  }),
};
