import { endpoint } from '../contract.ts';
import { activityExportQuerySchema, activityPageSchema, activityQuerySchema } from '../schemas/activity.ts';

export const activityEndpoints = {
  list: endpoint({
    operationId: 'listActivity',
    method: 'GET',
    path: '/activity',
    summary: "Audit events of an organization in the caller's subtree (with its subtree by default), newest first, with a cursor",
    tags: ['activity'],
    auth: 'session',
    permission: 'audit.view',
    query: activityQuerySchema,
    responses: { 200: activityPageSchema },
    errors: [404],
  }),
  export: endpoint({
    operationId: 'exportActivity',
    method: 'GET',
    path: '/activity/export',
    summary: 'The same filtered audit events as CSV, streamed',
    tags: ['activity'],
    auth: 'session',
    permission: 'audit.view',
    query: activityExportQuerySchema,
    responses: { 200: null },
    errors: [404, 429],
    produces: 'text/csv',
  }),
};
