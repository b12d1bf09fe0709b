import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { RATE_LIMITS } from '@console/domain';
import { buildApp, type AppOptions } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import { ensureFirstHouseAdmin } from '../db/bootstrap.ts';
import type { Database } from '../db/connection.ts';
import { createMailer, type MailTransport, type RetryPolicy } from '../lib/mail.ts';
import { ADMIN, freshDatabase } from '../test/harness.ts';

/** One line the app logged, as pino wrote it. */
export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

export interface LoggedApp {
  app: Awaited<ReturnType<typeof buildApp>>;
  database: Database;
  jwtSecret: string;
  baseUrl: string;
  port: number;
  /** Every line logged so far, at every level. */
  log: LogLine[];
  /** Everything logged so far as one text, to search for what must never be there. */
  logText(): string;
  signIn(email: string, password: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * The app on a fresh database with its log captured at trace level, listening on a real
 * port. For what createTestApp cannot show: the log, the mailer, the server's timeouts.
 */
export async function createLoggedApp(
  options: {
    config?: Partial<Config>;
    /** Send mail through this SMTP client (a queue and its sender) instead of the outbox. */
    mailTransport?: MailTransport;
    mailRetry?: Partial<RetryPolicy>;
    timeouts?: AppOptions['timeouts'];
    /** A second server process on another app's database, with its signing secret (tokens work on both). */
    sharing?: LoggedApp;
  } = {},
): Promise<LoggedApp> {
  const database = options.sharing?.database ?? (await freshDatabase());
  if (!options.sharing) await ensureFirstHouseAdmin(database.db, ADMIN);
  const jwtSecret = options.sharing?.jwtSecret ?? randomBytes(32).toString('hex');
  const log: LogLine[] = [];
  const logger = pino({ level: 'trace' }, { write: (line: string) => void log.push(JSON.parse(line)) });
  const config = { ...loadConfig({ LOG_LEVEL: 'trace', DATA_DIR: '/nonexistent' }), appUrl: 'http://console.test', ...options.config };
  const app = await buildApp({
    config,
    database,
    jwtSecret,
    logger,
    serveWeb: false,
    mailer: options.mailTransport
      ? createMailer({ db: database.db, smtpUrl: null, logger, transport: options.mailTransport, retry: options.mailRetry })
      : undefined,
    timeouts: options.timeouts,
    // The suites sign in many times, and resend an invitation right after making it.
    rateLimits: {
      ...RATE_LIMITS,
      signInPerAddress: 1000,
      signInPerEmail: 1000,
      recoverPerAddress: 1000,
      recoverPerEmail: 1000,
      signInAccountFailures: 1000,
      invitationResendIntervalSeconds: 0,
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    app,
    database,
    jwtSecret,
    baseUrl,
    port,
    log,
    logText: () => log.map((line) => JSON.stringify(line)).join('\n'),
    async signIn(email, password) {
      const response = await fetch(`${baseUrl}/api/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      if (response.status !== 200) throw new Error(`sign-in failed: ${response.status}`);
      return ((await response.json()) as { access_token: string }).access_token;
    },
    async close() {
      await app.close();
      // The database belongs to the app that opened it.
      if (!options.sharing) await database.close();
    },
  };
}
