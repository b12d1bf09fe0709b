import { z } from 'zod';
import { DOMAIN_STATES, isDomainName, isReturnPath } from '../identity.ts';
import { MESSAGES } from '../messages.ts';
import { emailSchema } from './auth.ts';
import { isSingleLineText, isStorableText } from './common.ts';

const m = MESSAGES.identity;

/** An issuer: https, or http on this machine's loopback (a provider a developer or a test runs here). */
export function isIssuerUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password || url.search || url.hash) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

const claimName = z
  .string({ error: m.claimInvalid })
  .trim()
  .regex(/^[A-Za-z0-9_.:-]{1,100}$/, m.claimInvalid);

/** What an admin registers: the issuer the console discovers the provider from, the client, and the claims that give e-mail and name. */
export const identityProviderInputSchema = z
  .object({
    issuer: z
      .string({ error: m.issuerInvalid })
      .trim()
      .max(2048, m.issuerInvalid)
      .refine(isIssuerUrl, m.issuerInvalid)
      .transform((value) => value.replace(/\/+$/, '')),
    client_id: z
      .string({ error: m.clientIdRequired })
      .trim()
      .min(1, m.clientIdRequired)
      .max(500, m.clientIdRequired)
      .refine((v) => isSingleLineText(v) && isStorableText(v), m.clientIdRequired),
    /** Left out when changing a provider whose secret stays. */
    client_secret: z
      .string({ error: m.clientSecretRequired })
      .min(1, m.clientSecretRequired)
      .max(2000, m.clientSecretRequired)
      .refine((v) => isSingleLineText(v) && isStorableText(v), m.clientSecretRequired)
      .optional(),
    email_claim: claimName.default('email'),
    name_claim: claimName.default('name'),
  })
  .strict();
export type IdentityProviderInput = z.infer<typeof identityProviderInputSchema>;

/** Just-in-time members, enforcement and the break-glass admin. */
export const identitySettingsInputSchema = z
  .object({
    /** null: no just-in-time members. */
    jit_role: z.string().max(60).nullable(),
    enforce_sso: z.boolean(),
    break_glass_user_id: z.uuid().nullable(),
  })
  .strict();
export type IdentitySettingsInput = z.infer<typeof identitySettingsInputSchema>;

export const claimDomainInputSchema = z
  .object({
    domain: z
      .string({ error: m.domainInvalid })
      .trim()
      .toLowerCase()
      .transform((v) => v.replace(/\.$/, ''))
      .refine(isDomainName, m.domainInvalid),
  })
  .strict();
export type ClaimDomainInput = z.infer<typeof claimDomainInputSchema>;

export const domainParamsSchema = z.object({ id: z.uuid(), domainId: z.uuid() });

export const identityDomainSchema = z.object({
  id: z.uuid(),
  domain: z.string(),
  state: z.enum(DOMAIN_STATES),
  /** The TXT record to publish: its name and its value. */
  record_name: z.string(),
  record_value: z.string(),
  verified_at: z.string().nullable(),
  approved_at: z.string().nullable(),
  approved_by: z.string().nullable(),
  /** The last DNS check and what it found wrong (null: not checked, or it passed). */
  checked_at: z.string().nullable(),
  check_error: z.string().nullable(),
  created_at: z.string(),
});
export type IdentityDomain = z.infer<typeof identityDomainSchema>;

export const identityProviderSchema = z.object({
  issuer: z.string(),
  client_id: z.string(),
  email_claim: z.string(),
  name_claim: z.string(),
  /** The last successful test sign-in. */
  tested_at: z.string().nullable(),
  updated_at: z.string(),
});

const personRefSchema = z.object({ id: z.uuid(), email: z.string(), name: z.string() });

export const identityViewSchema = z.object({
  organization_id: z.uuid(),
  provider: identityProviderSchema.nullable(),
  /** The address to register at the provider as the redirect (callback) URI. */
  redirect_uri: z.string(),
  jit_role: z.string().nullable(),
  /** The roles a just-in-time member may be given here. */
  jit_roles: z.array(z.string()),
  enforce_sso: z.boolean(),
  break_glass: personRefSchema.nullable(),
  /** The organization's active admins, who may be named break-glass. */
  admins: z.array(personRefSchema),
  domains: z.array(identityDomainSchema),
});
export type IdentityView = z.infer<typeof identityViewSchema>;

/** Where a sign-in goes next: the provider's login page, or the password. */
export const ssoDiscoverBodySchema = z.object({ email: emailSchema });
export const ssoDiscoverResultSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('password') }),
  z.object({ method: z.literal('sso'), organization_name: z.string(), redirect_url: z.string() }),
]);
export type SsoDiscoverResult = z.infer<typeof ssoDiscoverResultSchema>;

/** What the provider sends back to the callback (anything else is passed through to the library). */
export const ssoCallbackQuerySchema = z
  .object({
    code: z.string().max(4096).optional(),
    state: z.string().max(512).optional(),
    iss: z.string().max(2048).optional(),
    error: z.string().max(200).optional(),
    error_description: z.string().max(1000).optional(),
    session_state: z.string().max(512).optional(),
  })
  .passthrough();

export const redirectResultSchema = z.object({ redirect_url: z.string() });
export type RedirectResult = z.infer<typeof redirectResultSchema>;

/** A step-up through the provider: the console's page to come back to (a path of its own, nothing elsewhere). */
export const ssoStepUpBodySchema = z
  .object({
    return_to: z.string({ error: m.returnToInvalid }).refine(isReturnPath, m.returnToInvalid),
  })
  .strict();
export type SsoStepUpBody = z.infer<typeof ssoStepUpBodySchema>;

// SCIM tokens ------------------------------------------------------------------

export const scimTokenSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The visible start of the token (`scim_1a2b3c4d`). */
  prefix: z.string(),
  created_by: personRefSchema.nullable(),
  created_at: z.string(),
  rotated_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type ScimToken = z.infer<typeof scimTokenSchema>;

export const scimTokenListSchema = z.object({ items: z.array(scimTokenSchema) });
export const createScimTokenInputSchema = z
  .object({
    name: z
      .string({ error: m.scimTokenNameRequired })
      .trim()
      .min(1, m.scimTokenNameRequired)
      .max(100, m.scimTokenNameRequired)
      .refine((v) => isSingleLineText(v) && isStorableText(v), m.scimTokenNameRequired),
  })
  .strict();
/** A new or rotated token: the secret is in this answer only. */
export const createdScimTokenSchema = z.object({ token: scimTokenSchema, secret: z.string(), base_url: z.string() });
export const scimTokenParamsSchema = z.object({ id: z.uuid(), tokenId: z.uuid() });

export const scimCallSchema = z.object({
  id: z.string(),
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  outcome: z.string(),
  token: z.object({ id: z.uuid(), name: z.string(), prefix: z.string() }).nullable(),
  created_at: z.string(),
});
export const scimCallListSchema = z.object({ items: z.array(scimCallSchema) });

/** A pending claim somewhere in the house's tree, as the house's admins review it. */
export const pendingDomainClaimSchema = z.object({
  id: z.uuid(),
  domain: z.string(),
  organization_id: z.uuid(),
  organization_name: z.string(),
  claimed_by: z.string().nullable(),
  created_at: z.string(),
  /** Another organization's claim of the domain is in effect: this one can no longer be approved. */
  taken: z.boolean(),
});
export type PendingDomainClaim = z.infer<typeof pendingDomainClaimSchema>;
export const pendingDomainClaimListSchema = z.object({ items: z.array(pendingDomainClaimSchema) });
