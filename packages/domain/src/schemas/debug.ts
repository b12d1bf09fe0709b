import { z } from 'zod';

/** One message of the mail outbox (kept when no SMTP server is set). */
export const outboxMessageSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  link: z.string().nullable(),
  created_at: z.string(),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

export const outboxSchema = z.object({ messages: z.array(outboxMessageSchema) });
export type Outbox = z.infer<typeof outboxSchema>;
