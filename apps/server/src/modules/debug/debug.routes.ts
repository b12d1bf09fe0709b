import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callerOf } from '../../lib/caller.ts';
import { ForbiddenError } from '../../lib/errors.ts';
import type { AppContext } from '../../app.ts';

const outboxSchema = z.object({
  messages: z.array(
    z.object({
      id: z.string(),
      to: z.string(),
      subject: z.string(),
      text: z.string(),
      link: z.string().nullable(),
      created_at: z.string(),
    }),
  ),
});

const OUTBOX_PAGE = 50;

export function debugRoutes({ db, authenticate }: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/debug/outbox',
      {
        preHandler: authenticate,
        schema: {
          tags: ['debug'],
          summary: 'Recent mail of the outbox (house admins; only when no SMTP server is set)',
          response: { 200: outboxSchema },
        },
      },
      async (request) => {
        if (callerOf(request).role !== 'house_admin') throw new ForbiddenError();
        const rows = await db
          .selectFrom('outbox')
          .selectAll()
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(OUTBOX_PAGE)
          .execute();
        return {
          messages: rows.map((row) => ({
            id: String(row.id),
            to: row.to_address,
            subject: row.subject,
            text: row.body_text,
            link: row.link,
            created_at: row.created_at.toISOString(),
          })),
        };
      },
    );
  };
}
