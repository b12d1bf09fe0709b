import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Mailer } from './mail.ts';

/** What a background job that looks for due work and mails people about it is made with. */
export interface MailingJobOptions {
  db: Kysely<DB>;
  mailer: Mailer;
  logger: FastifyBaseLogger;
  /** How often it looks for due work (each job names its own default). */
  pollMs?: number;
  /** The clock (tests move it); its UTC day is "today" for a job that counts days. */
  now?: () => Date;
}
