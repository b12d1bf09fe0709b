import { z } from 'zod';
import { API_KEY_LIFECYCLE } from '../constants.ts';
import { amountInputSchema, amountStringSchema } from './amounts.ts';
import { MESSAGES } from '../messages.ts';
import { CONTROL_TEXT, UNSTORABLE_TEXT, isSingleLineText, isStorableText } from './common.ts';

const g = MESSAGES.globalSettings;

/** The most characters a stored link may have. */
export const SETTINGS_URL_MAX = 2048;
export const COMMUNITY_CHANNEL_NAME_MAX = 60;
export const COMMUNITY_CHANNELS_MAX = 2;

/** Whether a text is an absolute http(s) address: nothing else is put behind a link. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const httpUrlSchema = z
  .string({ error: g.invalidUrl })
  .trim()
  .max(SETTINGS_URL_MAX, g.urlTooLong)
  // The address parser drops tabs and line breaks and encodes the rest; what is stored is the
  // text as typed, so it must be storable and one line before it is read as an address.
  .refine(isStorableText, UNSTORABLE_TEXT)
  .refine(isSingleLineText, CONTROL_TEXT)
  .refine(isHttpUrl, g.invalidUrl);

export const communityChannelSchema = z.object({
  name: z
    .string({ error: g.channelNameRequired })
    .trim()
    .min(1, g.channelNameRequired)
    .max(COMMUNITY_CHANNEL_NAME_MAX, g.channelNameTooLong)
    .refine(isStorableText, UNSTORABLE_TEXT)
    .refine(isSingleLineText, CONTROL_TEXT),
  url: httpUrlSchema,
});
export type CommunityChannel = z.infer<typeof communityChannelSchema>;

/** What the house admins set; null leaves a link unset. The whole set is replaced at once. */
export const updateGlobalSettingsSchema = z.object({
  documentation_url: httpUrlSchema.nullable(),
  billing_portal_url: httpUrlSchema.nullable(),
  community_channels: z.array(communityChannelSchema).max(COMMUNITY_CHANNELS_MAX, g.tooManyChannels),
  /** The highest requests-per-minute an API key's own override may ask for; left out, it stays as it is. */
  api_key_rate_limit_ceiling: z
    .number({ error: g.ceilingInvalid(API_KEY_LIFECYCLE.maxRateLimitCeiling) })
    .int(g.ceilingInvalid(API_KEY_LIFECYCLE.maxRateLimitCeiling))
    .min(1, g.ceilingInvalid(API_KEY_LIFECYCLE.maxRateLimitCeiling))
    .max(API_KEY_LIFECYCLE.maxRateLimitCeiling, g.ceilingInvalid(API_KEY_LIFECYCLE.maxRateLimitCeiling))
    .optional(),
  /** Allocations and adjustments above this many credits ask for a step-up; left out, it stays as it is. */
  step_up_threshold: amountInputSchema.optional(),
});
export type UpdateGlobalSettingsInput = z.input<typeof updateGlobalSettingsSchema>;

export const globalSettingsSchema = z.object({
  documentation_url: z.string().nullable(),
  billing_portal_url: z.string().nullable(),
  community_channels: z.array(z.object({ name: z.string(), url: z.string() })),
  /** The highest requests-per-minute an API key's own override may ask for. */
  api_key_rate_limit_ceiling: z.number().int(),
  /** Allocations and adjustments above this many credits (exact decimal) ask for a step-up. */
  step_up_threshold: amountStringSchema,
  /** When and by whom they were last changed; null while never set. */
  updated_at: z.string().nullable(),
  updated_by_name: z.string().nullable(),
});
export type GlobalSettings = z.infer<typeof globalSettingsSchema>;

/** What the public Welcome page needs, readable without signing in. */
export const publicSettingsSchema = z.object({
  documentation_url: z.string().nullable(),
});
export type PublicSettings = z.infer<typeof publicSettingsSchema>;
