/** Business constants and limits of the console: sizes, pages, timings, thresholds. */
export const LIMITS = {
  orgNameMin: 2,
  orgNameMax: 100,
  orgDescriptionMax: 500,
  passwordMin: 8,
  /** An upper bound on a password, so hashing hostile input stays cheap. */
  passwordMax: 256,
  emailMax: 254,
  personNameMin: 2,
  personNameMax: 100,
} as const;

export const PAGING = {
  defaultPage: 1,
  orgPageSize: 50,
  orgPageSizes: [10, 25, 50, 100] as const,
  usersPageSize: 10,
  ledgerPageSize: 20,
  recentTransactionsFetch: 5,
  recentTransactionsShown: 3,
  teamCardMembers: 5,
  skeletonRows: 5,
  dashboardRecentOrgs: 5,
  dashboardHistoryDays: 7,
} as const;

export const TIMING = {
  /** Login retries once, 2 s after a network error. */
  loginNetworkRetryMs: 2000,
  loadRetryAttempts: 3,
  loadRetryDelayMs: 2000,
  queryStaleMs: 60_000,
  longStaleMs: 5 * 60_000,
  queryGcMs: 5 * 60_000,
  toastDurationMs: 4000,
  invitationToastMs: 5000,
  acceptanceRedirectMs: 3000,
  agentLimitReloadMs: 1500,
  tooltipDelayMs: 700,
  tooltipSkipDelayMs: 300,
} as const;

/**
 * Loading the invitations list again after a transient failure (no connection, 408, 429,
 * 5xx). During a new account's first minutes the list retries on its own, quickly, behind
 * the setup screen; otherwise the person chooses Retry Once or Auto Retry.
 */
export const INVITATION_RETRY = {
  /** Automatic attempts in one series. */
  maxAttempts: 8,
  /** Manual Retry on the setup screen is offered this many times. */
  maxManual: 5,
  /** Refresh Page appears on the setup screen after this many failed attempts. */
  refreshAfter: 3,
  /** "Taking longer than expected" after this many. */
  slowAfter: 5,
  baseMs: 2000,
  factor: 1.5,
  firstLoginBaseMs: 100,
  firstLoginFactor: 2,
  capMs: 10_000,
  /** How long after an account is created its first sign-in counts as a first login. */
  firstLoginWindowMs: 10 * 60_000,
} as const;

/**
 * The wait before automatic attempt `count + 1` of the invitations list, `count` failures in:
 * 2000 ms × 1.5^count, or 100 ms × 2^count for a first login; at most 10 s.
 */
export function invitationRetryDelayMs(count: number, firstLogin: boolean): number {
  const r = INVITATION_RETRY;
  const delay = firstLogin ? r.firstLoginBaseMs * r.firstLoginFactor ** count : r.baseMs * r.factor ** count;
  return Math.min(r.capMs, Math.round(delay));
}

/** Whether an account created at `createdAt` is still in its first-login window at `now`. */
export function isFirstLoginWindow(createdAt: string | null | undefined, now = Date.now()): boolean {
  const created = createdAt ? Date.parse(createdAt) : Number.NaN;
  return Number.isFinite(created) && now - created >= 0 && now - created < INVITATION_RETRY.firstLoginWindowMs;
}

export const SESSION = {
  accessTokenTtlSeconds: 15 * 60,
  refreshTokenTtlSeconds: 30 * 24 * 60 * 60,
  resetTokenTtlSeconds: 60 * 60,
  invitationTtlSeconds: 7 * 24 * 60 * 60,
  refreshCookie: 'refresh_token',
} as const;

/**
 * Second factors. A right password for a person with a factor gives a challenge, not a
 * session: the session starts once a code from the authenticator app (RFC 6238, 30-second
 * steps, one step either side of now accepted, never the same step twice) or an unused
 * recovery code answers it within `challengeTtlSeconds`. A challenge takes at most
 * `attemptsPerChallenge` wrong codes; the person's and the address's allowances
 * (`RATE_LIMITS.secondFactorPerPerson`, `secondFactorPerAddress`) bound the rest.
 */
export const MFA = {
  challengeTtlSeconds: 5 * 60,
  attemptsPerChallenge: 5,
  recoveryCodeCount: 10,
  totpDigits: 6,
  totpStepSeconds: 30,
  totpWindowSteps: 1,
  /** An authenticator app enrollment not confirmed by a first code within this is forgotten. */
  enrollmentTtlSeconds: 15 * 60,
  /** The name the authenticator app shows beside the account. */
  issuer: 'Organization Console',
  /**
   * Step-up: a second factor (or the password of a person without one) proved within this
   * long lets a session move money and secrets; the server's config may set another window.
   */
  stepUpFreshSeconds: 10 * 60,
  /** Allocations and adjustments above this many credits ask for a step-up until the house's admins set another threshold. */
  stepUpDefaultThreshold: '1000.00',
  // Passkeys
  /** A passkey request (its challenge) answers once within this. */
  passkeyChallengeTtlSeconds: 5 * 60,
  /** Passkeys one person may have. */
  passkeysPerPerson: 10,
  passkeyNameMax: 100,
} as const;

export const RATE_LIMITS = {
  /**
   * Webhook actions (registering, editing, rotating, deleting an endpoint, a test event, a
   * redelivery) per organization per window, across every server process: each can make the
   * server send requests for the caller.
   */
  webhookActionsPerOrganization: 120,
  webhookActionsWindowSeconds: 60 * 60,
  /**
   * Deliveries queued by test events and redeliveries per organization per webhook actions'
   * window: a redelivery of every failed delivery counts each one it queues, so the actions'
   * allowance does not let an organization queue a thousand deliveries with each.
   */
  webhookRedeliveriesPerOrganization: 1_000,
  /**
   * Attempts per window on sign-in and recovery, counted per client address and per e-mail;
   * sign-in counts an e-mail per client address, so nobody locks another person out.
   */
  signInPerAddress: 20,
  signInPerEmail: 5,
  recoverPerAddress: 10,
  recoverPerEmail: 3,
  windowSeconds: 15 * 60,
  /**
   * Wrong passwords for one e-mail from every address together (an unknown e-mail counts
   * alike): after this many in a row, each further attempt waits
   * `signInAccountDelayIntervalSeconds` × 2^(failures beyond them) after the last one, at
   * most `signInAccountMaxDelayIntervalSeconds`. The run is forgotten
   * `signInAccountWindowSeconds` after its last failure, and ends with a right password or a
   * password reset. While the account waits, a right password from an address it signed in
   * from within `signInKnownAddressWindowSeconds` still signs in.
   */
  signInAccountFailures: 10,
  signInAccountDelayIntervalSeconds: 1,
  signInAccountMaxDelayIntervalSeconds: 15 * 60,
  signInAccountWindowSeconds: 60 * 60,
  signInKnownAddressWindowSeconds: 90 * 24 * 60 * 60,
  /**
   * Invitation links made per hour (a creation, a resend, a copied link), counted across
   * every server process: per inviter (the signed-in user), per recipient address
   * (lower-cased, whatever the organization), and per subtree of the invitation's
   * organization and of each of its ancestors below the house, by that organization's
   * type, so an agency's tenants share the agency's allowance.
   */
  invitationsPerInviter: 20,
  invitationsPerRecipient: 3,
  invitationsPerSuperAgency: 200,
  invitationsPerAgency: 100,
  invitationsPerTenant: 50,
  invitationWindowSeconds: 60 * 60,
  /** The least time between two mails of one invitation (its creation or a resend, and the next resend). */
  invitationResendIntervalSeconds: 60,
  /**
   * API key changes per hour, counted across every server process: per organization (all its
   * admins together) and per person (the signed-in user). Making, rolling and editing a key
   * count; each writes an audit row, and making and rolling also queue a webhook event.
   * Revoking does not count: it changes a key once, and stopping a key never waits.
   */
  apiKeyChangesPerOrganization: 100,
  apiKeyChangesPerPerson: 50,
  apiKeyChangesWindowSeconds: 60 * 60,
  /**
   * Requests that change something (every session route but a GET) per person per minute,
   * across every server process: each writes audit rows and may queue mail or webhook events,
   * so a script holding a person's session cannot write without bound. Far above what a
   * person does by hand; counted in memory and shared every 200 ms, like the machine API's.
   */
  sessionWritesPerPerson: 120,
  /**
   * Second-factor codes per window (`windowSeconds`) after a right password, across every
   * server process: per person (whichever challenge they answer) and per client address.
   */
  secondFactorPerPerson: 10,
  secondFactorPerAddress: 30,
  /**
   * SCIM requests per `scimWindowSeconds`, across every server process: per token (a
   * provider's first import sends a request per person and group) and per client address,
   * counted before the token is looked up, so guessing tokens is bounded too.
   */
  scimPerToken: 600,
  scimPerAddress: 1_200,
  scimWindowSeconds: 60,
} as const;

/** The part of the rate limits that holds back guesses at one account's password. */
export type SignInAccountLimits = Pick<
  Record<keyof typeof RATE_LIMITS, number>,
  'signInAccountFailures' | 'signInAccountDelayIntervalSeconds' | 'signInAccountMaxDelayIntervalSeconds'
>;

/**
 * How long after its last wrong password an account's next sign-in waits, `failures` in a
 * row: nothing within the allowance, then 1, 2, 4… seconds (by default), at most 15 minutes.
 */
export function signInAccountWaitSeconds(failures: number, limits: SignInAccountLimits = RATE_LIMITS): number {
  const beyond = failures - limits.signInAccountFailures;
  if (beyond < 0) return 0;
  return Math.min(limits.signInAccountMaxDelayIntervalSeconds, limits.signInAccountDelayIntervalSeconds * 2 ** Math.min(beyond, 40));
}

/**
 * Requests a minute on the machine API (fixed one-minute windows, counted across every
 * server process). Each request counts against its key and against the subtree of each
 * organization from the key's own up to the house's children, so an agency's tenants
 * share the agency's allowance. A key's own limit, when its admins set one, replaces
 * `keyPerMinute` and is capped by the house's ceiling. Refused keys (unknown, malformed,
 * revoked, expired) count per client address, a slot held before each lookup; past the
 * limit the address's keys are looked up only when they can be real: their hash is among
 * the live keys' a process read from the database at most `liveKeysReloadSeconds` ago (read
 * again, at most that often, when a key is not), so a made-up key is refused without a
 * lookup and a valid key is served.
 */
export const MACHINE_RATE_LIMITS = {
  keyPerMinute: 1_200,
  subtreePerMinute: { super_agency: 60_000, agency: 20_000, tenant: 6_000 },
  refusedPerAddressPerMinute: 30,
  liveKeysReloadSeconds: 1,
  windowSeconds: 60,
} as const;

/**
 * A runtime's reported status changes reach the audit log at most once per activation in
 * this many hours, counted in the row that is written; a change into `error` is written
 * whenever the last written one was not `error`.
 */
export const HEARTBEAT_AUDIT = {
  statusAuditHours: 1,
} as const;

export const CREDITS = {
  lowBalanceThreshold: 100,
  step: 0.01,
  minAmount: 0.01,
} as const;

/** How long after an allocation its sender's admins may still give it back (while the child's balance covers it). */
export const ALLOCATION_REVERSAL = {
  windowHours: 24,
} as const;

/**
 * An alert about one subject (a child's refused automatic top-up, for one reason) goes to the
 * same admins at most once in this many hours, however often its cause repeats.
 */
export const ALERT_REPEAT_HOURS = 1;

export const AGENT_LIMIT = {
  warningPercent: 75,
  criticalPercent: 90,
  capacityDestructivePercent: 80,
  /**
   * An organization is near its agent limit when its active agents reach this percentage of
   * the limit without reaching the limit itself (at the limit it is at limit).
   */
  nearPercent: 80,
} as const;

export const UI = {
  narrowBreakpointPx: 768,
  themeStorageKey: 'vite-ui-theme',
  sidebarStorageKey: 'sidebar-state',
  pendingInvitationKey: 'pending-invitation-token',
  defaultTheme: 'light',
  productName: 'Organization Console',
} as const;

/**
 * Addresses the console links to. The documentation site is a global setting of the house
 * admins; the API reference is always served by the server.
 */
export const LINKS = {
  apiReference: '/api/docs',
} as const;

/** The life of an API key: how far ahead it may expire, its roll's grace, and its own rate limit. */
export const API_KEY_LIFECYCLE = {
  /** An end date is at most this many days ahead (two years). */
  maxLifetimeDays: 730,
  /** A roll keeps the old secret for 0 (it ends at once) up to this many seconds (7 days). */
  maxGraceSeconds: 604_800,
  /** The grace periods the console offers when rolling a key, in seconds. */
  gracePresets: [0, 3600, 86_400, 604_800] as const,
  /** A key is "expiring" when it ends within this many days, or its old secret is still in its grace period. */
  expiringWithinDays: 7,
  /** The house's ceiling on a key's requests-per-minute override until its admins change it. */
  defaultRateLimitCeiling: 6000,
  /** The highest ceiling the house may set (a PostgreSQL integer holds it with room). */
  maxRateLimitCeiling: 1_000_000,
  listPageSize: 50,
  /** A refused key (expired, rolled out, revoked) is written to the audit log at most once per reason and this period. */
  refusalAuditHours: 1,
} as const;
