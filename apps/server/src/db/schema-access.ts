import type { ColumnType, Generated } from 'kysely';
import type { ActivityAction, InvitationStatus, OrgStatus, OrgType, SessionMethod, UserStatus } from '@console/domain';
import type { Timestamp, NullableTimestamp } from './schema-columns.ts';

/** The tables of organizations, people, sign-in, single sign-on and provisioning, second factors, mail, the audit log, invitations and global settings. Part of `DB` (schema.ts), held to the migrated database by schema.test.ts. */
export interface OrganizationsTable {
  id: Generated<string>;
  name: string;
  description: string | null;
  org_type: OrgType;
  parent_org_id: string | null;
  parent_org_type: OrgType | null;
  /** Set by a trigger from the parent's path. */
  path: Generated<string>;
  status: Generated<OrgStatus>;
  disable_parent_invites: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface OrganizationBillingSettingsTable {
  organization_id: string;
  credit_balance: ColumnType<string, string | undefined, string>;
  activated_agent_limit: Generated<number>;
  /** The balance below which the admins are alerted, once per crossing (0010). */
  low_balance_threshold: ColumnType<string, string | undefined, string>;
  /** The last alert for an event refused for want of credits (at most one an hour). */
  insufficient_alerted_at: NullableTimestamp;
  updated_at: Timestamp;
  /** The monthly cap its parent set on its subtree's usage; null: none (0032). */
  spend_cap: string | null;
  daily_spend_cap: string | null;
  weekly_spend_cap: string | null;
  /** Automatic top-up from the parent: below this balance, move the amount, at most the maximum a month; all null or none. */
  top_up_below: string | null;
  top_up_amount: string | null;
  top_up_monthly_max: string | null;
  /** An automatic top-up's terms (0051): {expires_after_days, agent_type_ids, priority}, or null for open credits. */
  top_up_terms: ColumnType<unknown, string | null | undefined, string | null>;
  /** The hash of the organization's last ledger entry (its chain head), null while it has none; written by ledger_post (0048). */
  ledger_head: ColumnType<Uint8Array | null, never, never>;
}

/** Live descendants per ancestor, creation day, status and type; kept by triggers (0004). */
export interface OrganizationSubtreeCountsTable {
  ancestor_id: string;
  created_day: ColumnType<string, string, string>;
  status: OrgStatus;
  org_type: OrgType;
  n: number;
}

export interface UsersTable {
  id: Generated<string>;
  email: string;
  password_hash: string | null;
  first_name: string | null;
  last_name: string | null;
  role: string;
  status: Generated<UserStatus>;
  organization_id: string;
  preferred_locale: Generated<string>;
  invited_at: NullableTimestamp;
  last_login_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
  /** When a role change last made them an admin; null: an admin since joining, or no admin. */
  admin_since: NullableTimestamp;
  /** The identity provider's own id for the person (SCIM externalId). */
  scim_external_id: string | null;
  /** The SCIM token that provisioned the person, if one did. */
  scim_token_id: string | null;
}

export interface RefreshSessionsTable {
  id: Generated<string>;
  user_id: string;
  created_at: Timestamp;
  last_used_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  revoked_reason: string | null;
  user_agent: string | null;
  ip: string | null;
  /** When the session last proved a second factor (or the password of a person without one). */
  stepped_up_at: NullableTimestamp;
  /** How the session began: ending the password sessions is part of enforcing SSO. */
  method: Generated<SessionMethod>;
}

export type { SessionMethod };

// Single sign-on and provisioning.
export interface IdentityProvidersTable {
  organization_id: string;
  issuer: string;
  client_id: string;
  client_secret_sealed: string;
  email_claim: Generated<string>;
  name_claim: Generated<string>;
  /** The role a just-in-time member gets; null: no just-in-time members. Never an admin role. */
  jit_role: string | null;
  enforce_sso: Generated<boolean>;
  break_glass_user_id: string | null;
  tested_at: NullableTimestamp;
  updated_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface IdentityDomainsTable {
  id: Generated<string>;
  organization_id: string;
  domain: string;
  verification_token: string;
  verified_at: NullableTimestamp;
  approved_at: NullableTimestamp;
  approved_by: string | null;
  checked_at: NullableTimestamp;
  check_error: string | null;
  created_by: string | null;
  created_at: Timestamp;
}

export interface SsoSignInsTable {
  state_hash: string;
  organization_id: string;
  code_verifier_sealed: string;
  nonce: string;
  email: string | null;
  tested_by: string | null;
  /** A step-up through the provider: the session it renews, and the console's path to come back to. */
  step_up_session_id: string | null;
  return_to: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface SsoIdentitiesTable {
  organization_id: string;
  subject: string;
  user_id: string;
  created_at: Timestamp;
  last_sign_in_at: NullableTimestamp;
}

export interface ScimTokensTable {
  id: Generated<string>;
  organization_id: string;
  name: string;
  prefix: string;
  token_hash: string;
  created_by: string | null;
  created_at: Timestamp;
  rotated_at: NullableTimestamp;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

export interface ScimGroupsTable {
  id: Generated<string>;
  organization_id: string;
  display_name: string;
  external_id: string | null;
  role: string | null;
  version: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ScimGroupMembersTable {
  group_id: string;
  user_id: string;
}

export interface ScimCallsTable {
  id: Generated<string>;
  organization_id: string;
  token_id: string | null;
  method: string;
  path: string;
  status: number;
  outcome: string;
  created_at: Timestamp;
}

/** A person's authenticator app: pending until `confirmed_at`; `last_step` is the last accepted TOTP step. */
export interface TotpFactorsTable {
  user_id: string;
  secret_sealed: string;
  created_at: Timestamp;
  confirmed_at: NullableTimestamp;
  last_step: number | null;
}

export interface RecoveryCodesTable {
  id: Generated<string>;
  user_id: string;
  code_hash: string;
  created_at: Timestamp;
  used_at: NullableTimestamp;
}

// Require-a-second-factor policy ---------------------------------------------
/** An organization's second-factor requirements: each on while its `_since` is set. */
export interface MfaPoliciesTable {
  organization_id: string;
  own_since: NullableTimestamp;
  subtree_since: NullableTimestamp;
  admins_since: NullableTimestamp;
  grace_days: Generated<number>;
  updated_by: string | null;
  updated_at: Timestamp;
}

export interface SignInChallengesTable {
  token_hash: string;
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  failures: Generated<number>;
  used_at: NullableTimestamp;
}

// Passkeys: WebAuthn credentials and the challenges a browser signs.
export interface PasskeysTable {
  id: Generated<string>;
  user_id: string;
  credential_id: string;
  public_key: string;
  /** bigint: read as a string on PostgreSQL. */
  counter: ColumnType<string, number | undefined, number>;
  transports: Generated<string>;
  name: string;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
}

export interface WebauthnChallengesTable {
  challenge_hash: string;
  purpose: 'register' | 'reauth' | 'second_factor' | 'passwordless';
  user_id: string | null;
  sign_in_token_hash: string | null;
  created_at: Timestamp;
  expires_at: ColumnType<string, Date, Date>;
  used_at: NullableTimestamp;
}

export interface RefreshTokensTable {
  token_hash: string;
  session_id: string;
  created_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface OneTimeTokensTable {
  token_hash: string;
  purpose: 'password_reset';
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface OutboxTable {
  id: Generated<string>;
  to_address: string;
  subject: string;
  body_text: string;
  link: string | null;
  created_at: Timestamp;
}

/** Mail waiting for the SMTP sender (0008); a row is deleted once sent or given up. */
export interface MailQueueTable {
  id: Generated<string>;
  to_address: string;
  subject: string;
  body_text: string;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  locked_until: NullableTimestamp;
  last_error: string | null;
  created_at: Timestamp;
}

export interface AuditLogTable {
  id: Generated<string>;
  actor_user_id: string | null;
  organization_id: string | null;
  action: ActivityAction;
  target_type: string;
  target_id: string | null;
  details: ColumnType<unknown, string | undefined, string>;
  ip: string | null;
  request_id: string | null;
  created_at: Timestamp;
}

export interface RateLimitsTable {
  key: string;
  count: number;
  reset_at: Timestamp;
}

/** A CSV export under way, held until its answer ends or its lease passes. */
export interface ExportSlotsTable {
  id: Generated<string>;
  user_id: string;
  expires_at: Timestamp;
}

/** What an invitation row holds; `expired` is read from a pending row's expiry, never stored. */
export type StoredInvitationStatus = Exclude<InvitationStatus, 'expired'>;

export interface InvitationsTable {
  id: Generated<string>;
  token_hash: string;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  organization_id: string;
  invited_by: string | null;
  status: Generated<StoredInvitationStatus>;
  created_at: Timestamp;
  expires_at: Timestamp;
  accepted_at: NullableTimestamp;
  accepted_user_id: string | null;
  revoked_at: NullableTimestamp;
  /** Set with status revoked: the accepted invitation that made this one no longer apply. */
  superseded_by: string | null;
}

/** The hash of a link replaced by a newer one of the same invitation (Resend, Copy link). */
export interface InvitationReplacedLinksTable {
  token_hash: string;
  invitation_id: string;
  replaced_at: Timestamp;
}

/** The one row of global settings (id is always true). */
export interface GlobalSettingsTable {
  id: Generated<boolean>;
  documentation_url: string | null;
  billing_portal_url: string | null;
  community_1_name: string | null;
  community_1_url: string | null;
  community_2_name: string | null;
  community_2_url: string | null;
  updated_at: NullableTimestamp;
  updated_by: string | null;
  /** The highest requests-per-minute an API key's own override may ask for. */
  api_key_rate_limit_ceiling: Generated<number>;
  /** Allocations and adjustments above this many credits (exact decimal) ask for a step-up. */
  step_up_threshold: Generated<string>;
}
