import { endpoint } from '../contract.ts';
import { idParamsSchema } from '../schemas/organizations.ts';
import { mfaPolicySchema, updateMfaPolicySchema } from '../schemas/mfa-policy.ts';

export const mfaPolicyEndpoints = {
  get: endpoint({
    operationId: 'getMfaPolicy',
    method: 'GET',
    path: '/organizations/:id/mfa-policy',
    summary: "An organization's second-factor policy, what it inherits from above, and who of its people is covered (its own admins)",
    tags: ['organizations'],
    auth: 'session',
    params: idParamsSchema,
    responses: { 200: mfaPolicySchema },
    errors: [403],
  }),
  update: endpoint({
    operationId: 'updateMfaPolicy',
    method: 'PUT',
    path: '/organizations/:id/mfa-policy',
    summary:
      "Set an organization's second-factor policy (its own admins; turning a requirement off or lengthening the grace asks for a fresh second factor)",
    tags: ['organizations'],
    auth: 'session',
    stepUp: 'conditional',
    params: idParamsSchema,
    body: updateMfaPolicySchema,
    responses: { 200: mfaPolicySchema },
    errors: [422],
  }),
};
