import nodemailer from 'nodemailer';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db/schema.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The action link the message carries, logged and shown on /debug when no SMTP is set. */
  link?: string;
}

export interface Mailer {
  kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
}

const FROM = 'Organization Console <no-reply@console.local>';

/** SMTP when SMTP_URL is set; otherwise each message goes to the outbox table and its link to the log. */
export function createMailer(options: {
  db: Kysely<DB>;
  smtpUrl: string | null;
  logger: FastifyBaseLogger;
}): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      kind: 'smtp',
      async send(message) {
        await transport.sendMail({ from: FROM, to: message.to, subject: message.subject, text: message.text });
      },
    };
  }
  return {
    kind: 'outbox',
    async send(message) {
      await options.db
        .insertInto('outbox')
        .values({
          to_address: message.to,
          subject: message.subject,
          body_text: message.text,
          link: message.link ?? null,
        })
        .execute();
      options.logger.info({ to: message.to, subject: message.subject, link: message.link }, 'mail stored in outbox');
    },
  };
}
