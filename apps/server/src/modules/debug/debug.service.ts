import type { Kysely } from 'kysely';
import type { Outbox } from '@console/domain';
import type { DB } from '../../db/schema.ts';

/** How many of the most recent messages the outbox shows. */
const OUTBOX_PAGE = 50;

export function createDebugService({ db }: { db: Kysely<DB> }) {
  return {
    /**
     * The most recent mail of the outbox, newest first. It holds every account's reset and
     * invitation links: its route requires debug.outbox, which only house admins hold.
     */
    async outbox(): Promise<Outbox> {
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
  };
}

export type DebugService = ReturnType<typeof createDebugService>;
