import { z } from 'zod';
import { UNSTORABLE_TEXT, isStorableText } from './common.ts';

/** API keys: what an agent runtime calls the machine routes with, made and revoked by an organization's admins. */

/** What an API key may do, each on the machine routes only. */
export const API_SCOPES = ['usage:write', 'agents:report', 'entitlements:read', 'usage:read'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export const apiKeySchema = z.object({
  id: z.uuid(),
  organization_id: z.uuid(),
  name: z.string(),
  /** The visible start of the key, to recognise it (`oc_1a2b3c4d`). */
  prefix: z.string(),
  scopes: z.array(z.enum(API_SCOPES)),
  created_by: z.object({ id: z.uuid(), name: z.string(), email: z.string() }).nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  use_count: z.number().int(),
  revoked_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyListSchema = z.object({ api_keys: z.array(apiKeySchema) });

export const createApiKeySchema = z.object({
  name: z
    .string({ error: 'Enter a name for the key.' })
    .trim()
    .min(1, 'Enter a name for the key.')
    .max(100)
    .refine(isStorableText, UNSTORABLE_TEXT),
  scopes: z.array(z.enum(API_SCOPES)).min(1, 'Choose at least one scope.').max(API_SCOPES.length),
});
export type CreateApiKeyInput = z.input<typeof createApiKeySchema>;

/** The secret is in this answer only: it is stored hashed and never shown again. */
export const createdApiKeySchema = z.object({ api_key: apiKeySchema, secret: z.string() });
export const apiKeyResponseSchema = z.object({ api_key: apiKeySchema });
export const apiKeyParamsSchema = z.object({ id: z.uuid(), keyId: z.uuid() });
