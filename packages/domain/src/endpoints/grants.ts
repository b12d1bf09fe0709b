import { endpoint } from '../contract.ts';
import { expiringGrantsQuerySchema, expiringGrantsSchema, grantListQuerySchema, grantListSchema } from '../schemas/grants.ts';
import { idParamsSchema } from '../schemas/organizations.ts';

export const grantsEndpoints = {
  list: endpoint({
    operationId: 'listCreditGrants',
    method: 'GET',
    path: '/organizations/:id/credit-grants',
    summary: "An organization's balance in its parts (open credits, what each agent can spend, the soonest expiry) and its credit grants",
    tags: ['credits'],
    auth: 'session',
    permission: 'billing.view',
    params: idParamsSchema,
    query: grantListQuerySchema,
    responses: { 200: grantListSchema },
  }),
  expiring: endpoint({
    operationId: 'listExpiringGrants',
    method: 'GET',
    path: '/credit-grants/expiring',
    summary: "Grants in your organization's subtree that expire within the next days, soonest first",
    tags: ['credits'],
    auth: 'session',
    permission: 'billing.view',
    query: expiringGrantsQuerySchema,
    responses: { 200: expiringGrantsSchema },
  }),
};
