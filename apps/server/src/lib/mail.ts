import nodemailer from 'nodemailer';
import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DB, Executor } from '../db/schema.ts';
import { startPollLoop } from './poll-loop.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The action link the message carries, shown on /debug when no SMTP server is set; never logged. */
  link?: string;
}

export interface Mailer {
  kind: 'smtp' | 'outbox';
  /**
   * Stores the message for sending and never fails the request: with SMTP it joins the
   * queue (in `executor`'s transaction when one is given, so it is sent only if that
   * commits) and a background sender delivers it; without SMTP it goes to the outbox. A
   * failure to store it is logged without its text or link.
   */
  send(message: MailMessage, executor?: Executor): Promise<void>;
  /** Stops the background sender, letting a delivery under way finish (the app calls it when it closes). */
  close?(): Promise<void>;
}

/** What the sender needs of an SMTP client (nodemailer's transport, or a test's). */
export interface MailTransport {
  sendMail(mail: { from: string; to: string; subject: string; text: string }): Promise<unknown>;
}

/** How the sender retries: attempt n waits baseDelay * 2^(n-1), at most maxDelay; after maxAttempts it gives up. */
export interface RetryPolicy {
  baseDelayMs: number;
  maxDelayMs: number;
  maxAttempts: number;
  /** How often the queue is looked at when nothing woke the sender (mail queued by another process, retries). */
  pollMs: number;
  /** How long a sender holds the messages it is sending before another may take them. */
  leaseMs: number;
  /** A send that has not finished by then counts as failed (within the lease, so no other sender has taken it). */
  sendTimeoutMs: number;
}

/** 30 s, 1, 2, 4, 8, 16 and 32 minutes: a message is given up about an hour after it was queued. */
export const RETRY: RetryPolicy = {
  baseDelayMs: 30_000,
  maxDelayMs: 32 * 60_000,
  maxAttempts: 8,
  pollMs: 5_000,
  leaseMs: 2 * 60_000,
  sendTimeoutMs: 60_000,
};

const FROM = 'Organization Console <no-reply@console.local>';
const BATCH = 20;

/** A failure described for the log: its kind and message, never the message's text or link. */
function describe(error: unknown): { code?: string; message: string } {
  if (!(error instanceof Error)) return { message: String(error).slice(0, 200) };
  const code = (error as NodeJS.ErrnoException).code;
  return { ...(typeof code === 'string' && { code }), message: error.message.slice(0, 200) };
}

/** The promise, or a rejection once `ms` have passed without it settling. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`no answer within ${ms} ms`), { code: 'ETIMEDOUT' })), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The delay before attempt `attempts + 1`, after `attempts` failed ones. */
export function retryDelayMs(attempts: number, policy: RetryPolicy = RETRY): number {
  return Math.min(policy.baseDelayMs * 2 ** Math.max(attempts - 1, 0), policy.maxDelayMs);
}

/**
 * SMTP when SMTP_URL is set: messages are queued in `mail_queue` and sent after the request
 * by a background sender, with retries. Without it, each message goes to the outbox table (a
 * development mode, announced at start with a warning).
 */
export function createMailer(options: {
  db: Kysely<DB>;
  smtpUrl: string | null;
  logger: FastifyBaseLogger;
  /** Replaces the SMTP client built from smtpUrl (tests). */
  transport?: MailTransport;
  retry?: Partial<RetryPolicy>;
}): Mailer {
  const { db, logger } = options;
  if (options.smtpUrl === null && !options.transport) {
    logger.warn(
      'SMTP_URL is not set: no mail is sent. Messages, with their live password-reset and invitation links, are kept in ' +
        'the outbox table, and house admins read invitation links on /debug. This is a development mode: set SMTP_URL in production.',
    );
    return {
      kind: 'outbox',
      async send(message, executor = db) {
        try {
          await executor
            .insertInto('outbox')
            .values({ to_address: message.to, subject: message.subject, body_text: message.text, link: message.link ?? null })
            .execute();
          logger.info({ to: message.to, subject: message.subject }, 'mail stored in outbox');
        } catch (error) {
          logger.error({ to: message.to, subject: message.subject, error: describe(error) }, 'mail could not be stored in the outbox');
        }
      },
      close: async () => {},
    };
  }
  const transport = options.transport ?? nodemailer.createTransport(options.smtpUrl!);
  const sender = createSender(db, transport, logger, { ...RETRY, ...options.retry });
  return {
    kind: 'smtp',
    async send(message, executor = db) {
      try {
        await executor
          .insertInto('mail_queue')
          .values({ to_address: message.to, subject: message.subject, body_text: message.text })
          .execute();
        // Within a transaction the row is seen once it commits: the next look at the queue finds it.
        if (executor === db) sender.wake();
      } catch (error) {
        logger.error({ to: message.to, subject: message.subject, error: describe(error) }, 'mail could not be queued');
      }
    },
    close: () => sender.close(),
  };
}

/**
 * The background sender: takes the due messages (leased, so several processes share the
 * queue), sends each, deletes it once sent, and otherwise schedules the next attempt, until
 * it gives up after the last one. Runs at the start (mail left queued by a process before),
 * when woken and every pollMs. Closing waits a little for a delivery under way; what it
 * leaves is sent once its lease ends.
 */
function createSender(db: Kysely<DB>, transport: MailTransport, logger: FastifyBaseLogger, policy: RetryPolicy) {
  /** A mail was queued while a look was under way, or the look took a full batch: look again at once. */
  let again = false;

  async function take() {
    const due = await sql<{ id: string; to_address: string; subject: string; body_text: string; attempts: number }>`
      update mail_queue set attempts = attempts + 1, locked_until = now() + ${policy.leaseMs} * interval '1 millisecond'
      where id in (
        select id from mail_queue
        where next_attempt_at <= now() and (locked_until is null or locked_until < now())
        order by next_attempt_at, id
        limit ${BATCH}
        for update skip locked
      )
      returning id, to_address, subject, body_text, attempts`.execute(db);
    return due.rows;
  }

  async function deliver(row: Awaited<ReturnType<typeof take>>[number]) {
    try {
      await withTimeout(
        transport.sendMail({ from: FROM, to: row.to_address, subject: row.subject, text: row.body_text }),
        policy.sendTimeoutMs,
      );
      await db.deleteFrom('mail_queue').where('id', '=', row.id).execute();
      logger.info({ to: row.to_address, subject: row.subject, attempt: row.attempts }, 'mail sent');
    } catch (error) {
      const failure = describe(error);
      if (row.attempts >= policy.maxAttempts) {
        await db.deleteFrom('mail_queue').where('id', '=', row.id).execute();
        logger.error(
          { to: row.to_address, subject: row.subject, attempts: row.attempts, error: failure },
          'mail given up after the last attempt',
        );
        return;
      }
      const delayMs = retryDelayMs(row.attempts, policy);
      await db
        .updateTable('mail_queue')
        .set({
          next_attempt_at: sql<Date>`now() + ${delayMs} * interval '1 millisecond'`,
          locked_until: null,
          last_error: `${failure.code ?? ''} ${failure.message}`.trim(),
        })
        .where('id', '=', row.id)
        .execute();
      logger.warn(
        { to: row.to_address, subject: row.subject, attempt: row.attempts, retryInSeconds: Math.round(delayMs / 1000), error: failure },
        'mail not sent; will retry',
      );
    }
  }

  async function run(closed: () => boolean) {
    do {
      again = false;
      try {
        const rows = await take();
        for (const row of rows) await deliver(row);
        if (rows.length === BATCH) again = true;
      } catch (error) {
        // The database is away: the messages stay queued, and the next look tries again.
        logger.warn({ error: describe(error) }, 'mail queue could not be read');
      }
    } while (again && !closed());
  }

  const loop = startPollLoop({
    pollMs: policy.pollMs,
    firstAfterMs: 0,
    logger,
    what: 'mail queue could not be read',
    pass: run,
    nudge: () => {
      again = true;
    },
  });
  return { wake: loop.wake, close: loop.close };
}
