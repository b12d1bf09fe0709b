import { endpoint } from '../contract.ts';
import {
  apiKeyListSchema,
  apiKeyParamsSchema,
  apiKeyResponseSchema,
  createApiKeySchema,
  createdApiKeySchema,
} from '../schemas/api-keys.ts';
import { idParamsSchema } from '../schemas/organizations.ts';

export const apiKeysEndpoints = {
  list: endpoint({
    operationId: 'listApiKeys',
    method: 'GET',
    path: '/organizations/:id/api-keys',
    summary: "The organization's API keys: name, prefix, scopes, creator, created and last used (its admins)",
    tags: ['api-keys'],
    auth: 'session',
    permission: 'api_keys.manage',
    params: idParamsSchema,
    responses: { 200: apiKeyListSchema },
  }),
  create: endpoint({
    operationId: 'createApiKey',
    method: 'POST',
    path: '/organizations/:id/api-keys',
    summary: 'Make an API key; the secret is in this answer only (its admins)',
    tags: ['api-keys'],
    auth: 'session',
    permission: 'api_keys.manage',
    params: idParamsSchema,
    body: createApiKeySchema,
    responses: { 201: createdApiKeySchema },
  }),
  revoke: endpoint({
    operationId: 'revokeApiKey',
    method: 'DELETE',
    path: '/organizations/:id/api-keys/:keyId',
    summary: 'Revoke an API key: it stops at once (its admins)',
    tags: ['api-keys'],
    auth: 'session',
    permission: 'api_keys.manage',
    params: apiKeyParamsSchema,
    responses: { 200: apiKeyResponseSchema },
  }),
};
