import { endpoint } from '../contract.ts';
import { healthSchema } from '../schemas/common.ts';

export const healthEndpoints = {
  check: endpoint({
    operationId: 'getHealth',
    method: 'GET',
    path: '/health',
    summary: 'Liveness, database state, release and schema version',
    tags: ['ops'],
    auth: 'public',
    responses: { 200: healthSchema, 503: healthSchema },
  }),
};
