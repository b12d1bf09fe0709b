import type { Kysely } from 'kysely';
import type { Outbox } from '@console/domain';
import type { DB } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';

/** How many of the most recent messages the outbox shows. */
const OUTBOX_PAGE = 50;

/** What a reader sees instead of a link that would open another person's account. */
export const HIDDEN_LINK = '[link hidden: it was mailed to another account]';

/**
 * Whether a reader may see a message's link. An invitation link (the /invitation page)
 * creates an account that does not exist yet, as the inviter could with a copied link;
 * every other link (a password reset, or any link added later) works on an existing
 * account, so only the person it was mailed to sees it.
 */
function mayReadLink(reader: Caller, to: string, link: string): boolean {
  if (to.toLowerCase() === reader.email.toLowerCase()) return true;
  try {
    return new URL(link).pathname === '/invitation';
  } catch {
    return false;
  }
}

/** The text with a hidden link taken out: the link itself and every long value it carries (its token). */
function withoutLink(text: string, link: string): string {
  let hidden = text.replaceAll(link, HIDDEN_LINK);
  try {
    const url = new URL(link);
    const values = [...url.searchParams.values(), ...new URLSearchParams(url.hash.slice(1)).values()];
    for (const value of values) if (value.length >= 16) hidden = hidden.replaceAll(value, '[hidden]');
  } catch {
    // not a URL: the link itself is gone from the text already
  }
  return hidden;
}

export function createDebugService({ db }: { db: Kysely<DB> }) {
  return {
    /**
     * The most recent mail of the outbox, newest first (its route requires debug.outbox,
     * which only house admins hold). The outbox never hands anyone a working password-reset
     * link of another account: such a link is replaced, in `link` and in the text.
     */
    async outbox(reader: Caller): Promise<Outbox> {
      const rows = await db
        .selectFrom('outbox')
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(OUTBOX_PAGE)
        .execute();
      return {
        messages: rows.map((row) => {
          const shown = row.link === null || mayReadLink(reader, row.to_address, row.link);
          return {
            id: String(row.id),
            to: row.to_address,
            subject: row.subject,
            text: shown || row.link === null ? row.body_text : withoutLink(row.body_text, row.link),
            link: shown ? row.link : null,
            created_at: row.created_at,
          };
        }),
      };
    },
  };
}

export type DebugService = ReturnType<typeof createDebugService>;
