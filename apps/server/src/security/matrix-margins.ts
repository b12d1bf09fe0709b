import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { AuditDetails, PricingView } from '@console/domain';
import type { DB } from '../db/schema.ts';

/**
 * The authorization matrix's look at what an allowed read shows of its target's prices and
 * margins (the margins rule). Every organization holds a consumption charged at a marker
 * price, an earning at a marker margin through a marker child, a usage event at the marker
 * price and a price change of its book: a read reveals a price or margins when a marker (or
 * the field that carries it) is in its answer.
 */
export const MARGIN_MARKERS = { price: '0.0777', margin: '0.0555', child: 'Matrix Margin Child', bookBefore: '0.0666' } as const;

/** The marker rows of each organization (its usage priced on the matrix's agent type). */
export async function prepareMarginRows(db: Kysely<DB>, organizationIds: readonly string[], agentTypeId: string): Promise<void> {
  const m = MARGIN_MARKERS;
  for (const id of organizationIds) {
    const consumption = randomUUID();
    const group = randomUUID();
    await db
      .insertInto('credit_ledger_entries')
      .values([
        {
          id: consumption,
          organization_id: id,
          amount: '-0.08',
          entry_type: 'consumption',
          transaction_group: group,
          balance_after: '0.00',
          agent_type_id: agentTypeId,
          units: '1.0000',
          metadata: JSON.stringify({ agent: 'matrix-agent', events: 1, units: '1.0000', price: m.price }),
        },
        {
          organization_id: id,
          amount: '0.05',
          entry_type: 'earning',
          transaction_group: group,
          balance_after: '0.05',
          agent_type_id: agentTypeId,
          units: '1.0000',
          metadata: JSON.stringify({
            agent: 'matrix-agent',
            events: 1,
            units: '1.0000',
            margin: m.margin,
            child_id: id,
            child_name: m.child,
          }),
        },
      ])
      .execute();
    await db
      .insertInto('usage_events')
      .values({
        organization_id: id,
        client_event_id: `matrix-priced-${id}`,
        agent_type_id: agentTypeId,
        units: '1.0000',
        price: m.price,
        cost: m.price,
        charged: '0.08',
        occurred_at: sql<string>`now()`,
        ledger_entry_id: consumption,
      })
      .execute();
    await db
      .insertInto('audit_log')
      .values({
        organization_id: id,
        action: 'pricing.price_set',
        target_type: 'organization',
        target_id: id,
        details: JSON.stringify({
          agent: 'matrix-agent',
          agent_type_id: agentTypeId,
          before: m.bookBefore,
          after: m.price,
        } satisfies AuditDetails<'pricing.price_set'>),
      })
      .execute();
  }
}

/** What a read showed: a view's flags, for those its answer can carry. */
export type Revealed = Partial<PricingView>;

/** How to read a route's answer for what it revealed, and whether it must show all the rule allows or only nothing more. */
export interface Reveals {
  of(body: unknown, targetId: string): Revealed;
  /** The answer carries every field the rule allows (a page), so showing less is wrong too; otherwise only more is. */
  exact: boolean;
}

const text = (body: unknown) => (typeof body === 'string' ? body : JSON.stringify(body));
const rows = (body: unknown, key: string): Record<string, any>[] =>
  body && typeof body === 'object' && Array.isArray((body as Record<string, unknown>)[key]) ? (body as Record<string, any>)[key] : [];

export const REVEALS = {
  ledger: {
    exact: true,
    of: (body) => ({
      prices: rows(body, 'entries').some((e) => e.entry_type === 'consumption' && 'price' in e.metadata),
      margins: rows(body, 'entries').some((e) => e.entry_type === 'earning' && 'margin' in e.metadata),
    }),
  },
  // The ledger's CSV has no price column; its earnings' child and margin are in their sentences.
  ledgerCsv: { exact: true, of: (body) => ({ margins: text(body).includes(MARGIN_MARKERS.child) }) },
  events: { exact: true, of: (body) => ({ prices: rows(body, 'events').some((e) => e.price !== null) }) },
  eventsCsv: { exact: true, of: (body) => ({ prices: text(body).includes(MARGIN_MARKERS.price) }) },
  // The target's own price change (a subtree's rows are each judged as their own target elsewhere).
  activity: {
    exact: true,
    of: (body, targetId) => ({
      margins: rows(body, 'events').some(
        (e) => e.action === 'pricing.price_set' && e.organization?.id === targetId && 'after' in e.details,
      ),
    }),
  },
  activityCsv: { exact: true, of: (body) => ({ margins: text(body).includes(MARGIN_MARKERS.bookBefore) }) },
  agents: { exact: true, of: (body) => ({ prices: rows(body, 'activations').some((a) => a.agent_type.price !== null) }) },
  // The dashboard carries neither: any marker in it is a leak.
  dashboard: {
    exact: false,
    of: (body) => ({
      prices: text(body).includes(MARGIN_MARKERS.price),
      margins: text(body).includes(MARGIN_MARKERS.margin) || text(body).includes(MARGIN_MARKERS.child),
    }),
  },
} satisfies Record<string, Reveals>;
