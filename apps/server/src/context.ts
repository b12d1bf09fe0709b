import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/connection.ts';
import { createReadRouting } from './db/read-pool.ts';
import { createAuthenticator } from './lib/caller.ts';
import { EXPORT_LIMITS, type ExportLimits } from './lib/csv.ts';
import { createCsvExports } from './lib/csv-export.ts';
import { createMailer, type Mailer } from './lib/mail.ts';
import { createKeyAuthenticator } from './lib/key-auth.ts';
import { createKeyUseCounter } from './lib/key-use.ts';
import { createLiveKeys } from './lib/live-keys.ts';
import { createTokenService } from './lib/tokens.ts';
import { scaledRateLimits, type RateLimitSettings } from './lib/rate-limit-settings.ts';
import { createPasskeys } from './lib/passkeys.ts';
import { createSecondFactors } from './lib/second-factor.ts';
import { createAccountService } from './modules/account/account.service.ts';
import { createActivityService } from './modules/activity/activity.service.ts';
import { createAgentsService } from './modules/agents/agents.service.ts';
import { createApiKeysService } from './modules/api-keys/api-keys.service.ts';
import { createApiKeyLimits } from './modules/api-keys/limits.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { createBalanceAlertSender } from './modules/billing/balance-alerts.ts';
import { createTopUpRunner } from './modules/billing/top-ups.ts';
import { createBillingService } from './modules/billing/billing.service.ts';
import { createPricingService } from './modules/pricing/pricing.service.ts';
import { createCreditsService } from './modules/credits/credits.service.ts';
import { createDashboardService } from './modules/dashboard/dashboard.service.ts';
import { createDebugService } from './modules/debug/debug.service.ts';
import { createInvitationsService } from './modules/invitations/invitations.service.ts';
import { createInvitationLimits } from './modules/invitations/limits.ts';
import { createInvoicesService } from './modules/invoices/invoices.service.ts';
import { createMonthlyIssuer } from './modules/invoices/monthly-issuer.ts';
import { createOrganizationsService } from './modules/organizations/organizations.service.ts';
import { createOverdueReminders } from './modules/payments/overdue-reminders.ts';
import { createGrantExpiry } from './modules/grants/expiry.ts';
import { createGrantsService } from './modules/grants/grants.service.ts';
import { createPaymentsService } from './modules/payments/payments.service.ts';
import { createStatementsService } from './modules/statements/statements.service.ts';
import { createUsageService } from './modules/usage/usage.service.ts';
import { clustered } from './lib/metrics/cluster.ts';
import { countingSender, createMetrics } from './lib/metrics/metrics.ts';
import { createUsersService } from './modules/users/users.service.ts';
import { allowedHosts } from './modules/webhooks/address.ts';
import { createWebhookDispatcher, type DispatcherOptions } from './modules/webhooks/dispatcher.ts';
import { createSender } from './modules/webhooks/send.ts';
import { secretSealer } from './lib/sealer.ts';
import { createWebhooksService } from './modules/webhooks/webhooks.service.ts';
import { createMachineLimiter, createSharedCounter, machineLimitSettings, type MachineLimitSettings } from './lib/machine-limits.ts';

/** What the context is built from. */
export interface ContextOptions {
  config: Config;
  database: Database;
  jwtSecret: string;
  /** Overrides for tests and benchmarks; production uses RATE_LIMITS. */
  rateLimits?: RateLimitSettings;
  /** Overrides for tests and benchmarks; production uses MACHINE_RATE_LIMITS times RATE_LIMIT_FACTOR. */
  machineLimits?: MachineLimitSettings;
  /** How often a process shares its machine rate-limit counts (default 200 ms). */
  machineLimitSyncMs?: number;
  mailer?: Mailer;
  /** Overrides for tests; production uses EXPORT_LIMITS. */
  exportLimits?: ExportLimits;
  /** How often the balance alert sender looks for pending alerts (default 5 s). */
  alertPollMs?: number;
  /** How often pending automatic top-ups are looked for (default 1 s). */
  topUpPollMs?: number;
  /** How long a read after the person's own write waits for the replica before reading the primary (default 1 s). */
  readWaitMs?: number;
  /** How often the monthly invoice issuer looks for months to close (default 60 s). */
  invoicePollMs?: number;
  /** How often overdue invoices are looked at for reminders (default 5 minutes). */
  reminderPollMs?: number;
  /** How often credit grants due to expire, or to be warned of, are looked for (default 30 s). */
  grantExpiryPollMs?: number;
  /** The webhook sender's settings for tests and benchmarks (poll, retry schedule, timeout, concurrency). */
  webhooks?: Partial<
    Pick<DispatcherOptions, 'pollMs' | 'batchSize' | 'concurrency' | 'retrySchedule' | 'disableAfterMs' | 'leaseMs' | 'timeoutPauseSeconds'>
  > & {
    timeoutMs?: number;
  };
}

const rateLimitsOf = (options: ContextOptions): RateLimitSettings => options.rateLimits ?? scaledRateLimits(options.config.rateLimitFactor);

/** Everything a route module may use: the services, the authentication preHandler and the settings. */
export type AppContext = ReturnType<typeof createContext>;

export function createContext(options: ContextOptions, log: FastifyBaseLogger) {
  const db = options.database.db;
  // Heavy reads (lists, exports, dashboards, activity, usage events) go to the replica when
  // DATABASE_READ_URL is set; money decisions and everything that writes keep `db`, the primary.
  const reads = createReadRouting(options.database, options.config.databaseReadUrl, { waitMs: options.readWaitMs });
  const readDb = reads.readDb;
  // Prometheus metrics (METRICS_TOKEN or METRICS_PORT): counted by the services, read at each scrape.
  const metrics = options.config.metrics
    ? clustered(createMetrics({ db, pool: options.database.pool, replicaLag: reads.replica ? reads.lag : undefined }))
    : null;
  const tokens = createTokenService(options.jwtSecret);
  const mailer = options.mailer ?? createMailer({ db, smtpUrl: options.config.smtpUrl, logger: log });
  const organizations = createOrganizationsService({ db, readDb });
  const users = createUsersService({ db, readDb, organizations, mailer });
  const usage = createUsageService({ db, readDb, organizations, onStatement: metrics?.usageStatement });
  const credits = createCreditsService({ db, readDb, organizations, usage });
  const statements = createStatementsService({ db: readDb, organizations });
  // API key uses, written at most once a second; the machine routes flush them on close.
  const keyUses = createKeyUseCounter(db, log);
  // Machine API requests, counted in memory and shared across processes every 200 ms.
  const machineLimits = options.machineLimits ?? machineLimitSettings(options.config.rateLimitFactor);
  const machineCounter = createSharedCounter(db, log, { windowSeconds: machineLimits.windowSeconds, syncMs: options.machineLimitSyncMs });
  const billing = createBillingService({ db, organizations });
  const pricing = createPricingService({ db, organizations, mailer });
  const agents = createAgentsService({ db, organizations, pricing });
  const apiKeys = createApiKeysService({ db, organizations, limits: createApiKeyLimits(rateLimitsOf(options)) });
  // Started here and stopped when the app closes, like the mail sender.
  const balanceAlerts = createBalanceAlertSender({ db, mailer, logger: log, appUrl: options.config.appUrl, pollMs: options.alertPollMs });
  const topUps = createTopUpRunner({ db, logger: log, pollMs: options.topUpPollMs });
  const invoices = createInvoicesService({ db, readDb, organizations, mailer, appUrl: options.config.appUrl });
  const monthlyIssuer = createMonthlyIssuer({ db, mailer, appUrl: options.config.appUrl, logger: log, pollMs: options.invoicePollMs });
  const payments = createPaymentsService({ db, readDb, invoices, mailer });
  const overdueReminders = createOverdueReminders({ db, mailer, logger: log, pollMs: options.reminderPollMs });
  const grants = createGrantsService({ db: readDb, organizations });
  const grantExpiry = createGrantExpiry({ db, mailer, logger: log, pollMs: options.grantExpiryPollMs });
  // Webhooks: the sender runs in every process and shares the queue through the database.
  const allowed = allowedHosts(options.config.webhookAllowedHosts);
  const sealer = secretSealer(options.jwtSecret);
  const webhookDispatcher = createWebhookDispatcher({
    db,
    logger: log,
    mailer,
    sealer,
    sender: countingSender(createSender({ allowed, timeoutMs: options.webhooks?.timeoutMs }), metrics),
    ...options.webhooks,
  });
  const webhooks = createWebhooksService({
    db,
    organizations,
    sealer,
    allowed,
    limits: rateLimitsOf(options),
    wake: webhookDispatcher.wake,
  });
  const dashboard = createDashboardService({ db: readDb, organizations });
  const debug = createDebugService({ db });
  const activity = createActivityService({ db: readDb, organizations });
  const rateLimits = rateLimitsOf(options);
  // Authenticator app secrets are sealed under their own key, derived from the same server secret.
  const factors = createSecondFactors({ sealer: secretSealer(options.jwtSecret, 'totp-secrets'), limits: rateLimits });
  // Passkeys' relying party is the console's own address.
  const passkeys = createPasskeys({ appUrl: options.config.appUrl });
  const auth = createAuthService({
    db,
    tokens,
    users,
    mailer,
    appUrl: options.config.appUrl,
    limits: rateLimits,
    factors,
    passkeys,
    stepUpFreshSeconds: options.config.stepUpFreshSeconds,
  });
  const account = createAccountService({ db, factors, passkeys });
  // Identity providers' client secrets and pending sign-ins' PKCE verifiers, under their own key.
  const identitySealer = secretSealer(options.jwtSecret, 'identity-secrets');
  const limits = createInvitationLimits(rateLimits);
  const invitations = createInvitationsService({ db, organizations, users, auth, mailer, appUrl: options.config.appUrl, limits });
  return {
    config: options.config,
    metrics,
    /** Set once the app begins to close: readiness then answers 503. */
    lifecycle: { closing: false },
    db,
    readDb,
    reads,
    tokens,
    mailer,
    users,
    auth,
    factors,
    identitySealer,
    account,
    organizations,
    invitations,
    credits,
    statements,
    usage,
    billing,
    pricing,
    agents,
    apiKeys,
    balanceAlerts,
    topUps,
    invoices,
    payments,
    overdueReminders,
    grants,
    grantExpiry,
    monthlyIssuer,
    webhooks,
    webhookDispatcher,
    dashboard,
    debug,
    activity,
    authenticate: createAuthenticator(
      db,
      tokens,
      { counter: machineCounter, perPerson: rateLimits.sessionWritesPerPerson },
      options.config.stepUpFreshSeconds,
    ),
    authenticateKey: createKeyAuthenticator(
      db,
      keyUses,
      createMachineLimiter(machineCounter, machineLimits),
      createLiveKeys(db, { reloadMs: machineLimits.liveKeysReloadSeconds * 1000 }),
    ),
    keyUses,
    machineCounter,
    rateLimits,
    csvExports: createCsvExports(options.exportLimits ?? EXPORT_LIMITS, db, log),
  };
}
