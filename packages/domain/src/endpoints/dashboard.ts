import { endpoint } from '../contract.ts';
import { dashboardQuerySchema, dashboardSchema } from '../schemas/dashboard.ts';

export const dashboardEndpoints = {
  get: endpoint({
    operationId: 'getDashboard',
    method: 'GET',
    path: '/dashboard',
    summary:
      "Every dashboard figure of one organization (the caller's own by default; another in scope with organizations.get), computed in SQL",
    tags: ['dashboard'],
    auth: 'session',
    query: dashboardQuerySchema,
    responses: { 200: dashboardSchema },
    errors: [403, 404],
  }),
};
