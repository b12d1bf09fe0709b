import { endpoint } from '../contract.ts';
import { usageEventsExportQuerySchema, usageEventsPageSchema, usageEventsQuerySchema } from '../schemas/usage-events.ts';

/** The stored usage events, as the console reads them beside the ledger. */
export const usageEndpoints = {
  listEvents: endpoint({
    operationId: 'listUsageEventsOfOrganization',
    method: 'GET',
    path: '/usage-events',
    summary: 'Usage events of an organization in scope, newest occurrence first, paged by cursor; by agent, time or consumption entry',
    tags: ['credits'],
    auth: 'session',
    permission: 'billing.view',
    query: usageEventsQuerySchema,
    responses: { 200: usageEventsPageSchema },
    errors: [404],
  }),
  exportEvents: endpoint({
    operationId: 'exportUsageEvents',
    method: 'GET',
    path: '/usage-events/export',
    summary: 'The same filtered events as CSV, streamed',
    tags: ['credits'],
    auth: 'session',
    permission: 'billing.view',
    query: usageEventsExportQuerySchema,
    responses: { 200: null },
    errors: [404, 429],
    produces: 'text/csv',
  }),
};
