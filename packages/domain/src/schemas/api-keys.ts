import { z } from 'zod';
import { amountStringSchema } from './amounts.ts';
import { capAmountSchema, windowCapUsageSchema } from './spend.ts';
import { API_KEY_LIFECYCLE } from '../constants.ts';
import { MESSAGES } from '../messages.ts';
import { UNSTORABLE_TEXT, isStorableText } from './common.ts';

/** API keys: what an agent runtime calls the machine routes with, made and revoked by an organization's admins. */

/** What an API key may do, each on the machine routes only. */
export const API_SCOPES = ['usage:write', 'agents:report', 'entitlements:read', 'usage:read'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/**
 * Where a key stands now. `live`: its secret works; `expiring`: live, but it ends within
 * `API_KEY_LIFECYCLE.expiringWithinDays` days or its old secret is still in its grace period;
 * `expired`: past its end date; `revoked`: revoked (both its secrets end at once).
 */
export const API_KEY_STATES = ['live', 'expiring', 'expired', 'revoked'] as const;
export type ApiKeyState = (typeof API_KEY_STATES)[number];

/** Why a machine route refused a key whose secret matched. */
export const API_KEY_REFUSALS = ['expired', 'rolled', 'revoked'] as const;
export type ApiKeyRefusal = (typeof API_KEY_REFUSALS)[number];
/**
 * The refusals the audit log records (at most once per key and reason an hour): nothing else
 * says when a key expired or an old secret ran out; a revoked key's revocation is audited already.
 */
export const AUDITED_API_KEY_REFUSALS = ['expired', 'rolled'] as const satisfies readonly ApiKeyRefusal[];
export type AuditedApiKeyRefusal = (typeof AUDITED_API_KEY_REFUSALS)[number];

/** A live or expiring key may be edited and rolled; expired and revoked ones may not. */
export const isLiveApiKeyState = (state: ApiKeyState): boolean => state === 'live' || state === 'expiring';

/** Why an end date cannot be set at `now` (ms), or null: it must be in the future and at most two years ahead. */
export function apiKeyExpiryProblem(expiresAt: string, now: number): string | null {
  const at = Date.parse(expiresAt);
  if (!Number.isFinite(at) || at <= now) return MESSAGES.apiKeys.expiryNotFuture;
  if (at > now + API_KEY_LIFECYCLE.maxLifetimeDays * 86_400_000) return MESSAGES.apiKeys.expiryTooFar(API_KEY_LIFECYCLE.maxLifetimeDays);
  return null;
}

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
  state: z.enum(API_KEY_STATES),
  /** null: the key never expires. */
  expires_at: z.string().nullable(),
  /** The prefix of the secret before the last roll, while it still works (with its end); null otherwise. */
  previous_prefix: z.string().nullable(),
  previous_expires_at: z.string().nullable(),
  /** When the key was last rolled, if ever. */
  rolled_at: z.string().nullable(),
  /** The key's own requests-per-minute limit; null: the house's default. */
  rate_limit_per_minute: z.number().int().nullable(),
  /** What the key may charge in a calendar month (UTC; null: no cap), and what this month's usage charged. */
  monthly_cap: z.object({ cap: amountStringSchema.nullable(), month: z.string(), charged: amountStringSchema }),
  /** What the key may charge in a day and in an ISO week (UTC; null: no cap), and what today's and this week's usage charged. */
  daily_cap: windowCapUsageSchema,
  weekly_cap: windowCapUsageSchema,
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** The list's filter: `revoked` shows revoked and expired keys; without one, every key, live ones first. */
export const API_KEY_FILTERS = ['live', 'expiring', 'revoked'] as const;
export type ApiKeyFilter = (typeof API_KEY_FILTERS)[number];

export const apiKeyListQuerySchema = z.object({
  state: z.enum(API_KEY_FILTERS).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(API_KEY_LIFECYCLE.listPageSize),
});
export type ApiKeyListQuery = z.input<typeof apiKeyListQuerySchema>;

/** Live keys first, then the others, each newest first; `next_cursor` is null on the last page. */
export const apiKeyListSchema = z.object({ api_keys: z.array(apiKeySchema), next_cursor: z.string().nullable() });
export type ApiKeyPage = z.infer<typeof apiKeyListSchema>;

const keyNameSchema = z
  .string({ error: 'Enter a name for the key.' })
  .trim()
  .min(1, 'Enter a name for the key.')
  .max(100)
  .refine(isStorableText, UNSTORABLE_TEXT);
/** An end date with its offset; whether it is in the future and not too far is the service's rule (`apiKeyExpiryProblem`). */
const expiresAtSchema = z.iso.datetime({ offset: true, error: 'Enter a date and time.' });
/** Requests per minute; at most the house's ceiling, which the service checks. */
const rateLimitSchema = z
  .number({ error: 'Enter a whole number of requests per minute.' })
  .int('Enter a whole number of requests per minute.')
  .min(1, 'Enter at least 1 request per minute.')
  .max(API_KEY_LIFECYCLE.maxRateLimitCeiling, MESSAGES.globalSettings.ceilingInvalid(API_KEY_LIFECYCLE.maxRateLimitCeiling));

export const createApiKeySchema = z.object({
  name: keyNameSchema,
  scopes: z.array(z.enum(API_SCOPES)).min(1, 'Choose at least one scope.').max(API_SCOPES.length),
  expires_at: expiresAtSchema.nullable().optional(),
  rate_limit_per_minute: rateLimitSchema.nullable().optional(),
});
export type CreateApiKeyInput = z.input<typeof createApiKeySchema>;

/** What an edit changes: each field left out stays; null clears an end date or a rate limit. */
export const updateApiKeySchema = z.object({
  name: keyNameSchema.optional(),
  expires_at: expiresAtSchema.nullable().optional(),
  rate_limit_per_minute: rateLimitSchema.nullable().optional(),
  /** Credits the key may charge in a calendar month (UTC); null removes the cap. */
  monthly_cap: capAmountSchema.nullable().optional(),
  /** …in an ISO week, Monday to Sunday (UTC), and in a day (UTC); null removes the cap. */
  weekly_cap: capAmountSchema.nullable().optional(),
  daily_cap: capAmountSchema.nullable().optional(),
});
export type UpdateApiKeyInput = z.input<typeof updateApiKeySchema>;

/** A roll: a new secret now, the old one accepted for `grace_seconds` more (0: it ends at once). */
export const rollApiKeySchema = z.object({
  grace_seconds: z.number().int().min(0).max(API_KEY_LIFECYCLE.maxGraceSeconds),
});
export type RollApiKeyInput = z.input<typeof rollApiKeySchema>;

/** The secret is in this answer only: it is stored hashed and never shown again. */
export const createdApiKeySchema = z.object({ api_key: apiKeySchema, secret: z.string() });
export const apiKeyResponseSchema = z.object({ api_key: apiKeySchema });
export const apiKeyParamsSchema = z.object({ id: z.uuid(), keyId: z.uuid() });
