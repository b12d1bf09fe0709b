import { endpoint } from '../contract.ts';
import { agentLimitSchema, billingResponseSchema, capacityResponseSchema } from '../schemas/billing.ts';
import { idParamsSchema } from '../schemas/organizations.ts';

export const billingEndpoints = {
  get: endpoint({
    operationId: 'getBilling',
    method: 'GET',
    path: '/organizations/:id/billing',
    summary: 'Billing settings, active agents and what the caller may change',
    tags: ['billing'],
    auth: 'session',
    permission: 'billing.view',
    params: idParamsSchema,
    responses: { 200: billingResponseSchema },
  }),
  setAgentLimit: endpoint({
    operationId: 'setAgentLimit',
    method: 'PUT',
    path: '/organizations/:id/agent-limit',
    summary: "Set a direct child's activated agent limit (or, for house admins, the own house's)",
    tags: ['billing'],
    auth: 'session',
    params: idParamsSchema,
    body: agentLimitSchema,
    responses: { 200: billingResponseSchema },
    errors: [422],
  }),
  capacity: endpoint({
    operationId: 'getCapacity',
    method: 'GET',
    path: '/organizations/:id/capacity',
    summary: "An organization's limit, its children's limits and what is left",
    tags: ['billing'],
    auth: 'session',
    permission: 'billing.view',
    params: idParamsSchema,
    responses: { 200: capacityResponseSchema },
  }),
};
