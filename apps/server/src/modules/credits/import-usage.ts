import { randomUUID } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import { MESSAGES, type RefundResult, type UsageImportResult, type UsageRefundInput } from '@console/domain';
import type { DB } from '../../db/schema.ts';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { NotFoundError, RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import type { UsageEvent } from '../usage/usage.service.ts';
import { c, move, type CreditsDeps } from './queries.ts';

/** A refund as validated (the amount an exact string). */
type RefundInput = Omit<UsageRefundInput, 'amount'> & { amount: string };

/** The console's usage import: usage events through the usage engine, then refunds of earlier consumption. */
export function createImportUsage({ db, organizations, usage }: CreditsDeps) {
  /**
   * Refuses a refund that names no consumption of the organization, or that would give back
   * more than the consumption took minus its refunds so far. A refund names a usage event by
   * its id (what the event charged; an id both a key and the house's import used names both
   * events) or, for entries older than the events, a consumption entry by its external_ref.
   * Called with the balance row locked.
   */
  async function refundable(trx: Transaction<DB>, organizationId: string, consumptionRef: string, amount: string) {
    const { rows } = await sql<{ consumed: string | null; left: string | null; fits: boolean | null }>`
      with consumed as (
        select coalesce(
          (select sum(charged) from usage_events where organization_id = ${organizationId} and client_event_id = ${consumptionRef}),
          (select -sum(amount) from credit_ledger_entries
            where organization_id = ${organizationId} and entry_type = 'consumption' and external_ref = ${consumptionRef})
        ) as total
      ),
      refunded as (
        select coalesce(sum(amount), 0) as total from credit_ledger_entries
        where organization_id = ${organizationId} and refund_of = ${consumptionRef}
      )
      select consumed.total::text as consumed, (consumed.total - refunded.total)::numeric(16,2)::text as left,
             consumed.total - refunded.total >= ${amount}::numeric as fits
      from consumed, refunded`.execute(trx);
    const row = rows[0]!;
    if (row.consumed === null) throw new RuleError(c.refundUnknownConsumption(consumptionRef), 'refund_without_consumption');
    if (!row.fits) throw new RuleError(c.refundExceeds(row.left!), 'refund_exceeds_consumption');
  }

  /**
   * A refund of an earlier consumption of an organization in the caller's subtree: it names
   * that consumption (`refund_of`: the usage event's id)
   * and, with the refunds of it before, never exceeds what it took, so credits are only
   * given back, never made. `external_ref` makes it idempotent; an organization out of
   * reach, or a rule it breaks, rejects this refund alone.
   */
  async function refund(caller: Caller, record: RefundInput, info: ClientInfo): Promise<RefundResult> {
    const rejected = (message: string): RefundResult => ({
      external_ref: record.external_ref,
      status: 'rejected',
      entry_id: null,
      message,
    });
    const org = await organizations.visible(caller, record.organization_id).catch((error: unknown) => {
      if (error instanceof NotFoundError) return null;
      throw error;
    });
    if (!org) return rejected(MESSAGES.usage.outOfReach);
    const existing = await db
      .selectFrom('credit_ledger_entries')
      .select(['id', 'entry_type', 'refund_of'])
      .where('organization_id', '=', org.id)
      .where('external_ref', '=', record.external_ref)
      .executeTakeFirst();
    if (existing) {
      return existing.entry_type === 'refund' && existing.refund_of === record.refund_of
        ? { external_ref: record.external_ref, status: 'duplicate', entry_id: existing.id, message: null }
        : rejected(MESSAGES.usage.refundIdTaken);
    }
    try {
      const entry = await db.transaction().execute(async (trx) => {
        const [created] = await move(
          trx,
          [
            {
              organizationId: org.id,
              amount: record.amount,
              type: 'refund',
              metadata: { refund_of: record.refund_of, ...(record.reason && { reason: record.reason, notes: record.reason }) },
              externalRef: record.external_ref,
              refundOf: record.refund_of,
            },
          ],
          randomUUID(),
          caller.userId,
          // Refunds of one consumption all lock its organization's balance row, so each sees the ones before it.
          { afterLock: () => refundable(trx, org.id, record.refund_of, record.amount) },
        );
        await auditAction(trx, caller, info, {
          organizationId: org.id,
          action: 'credits.refund',
          targetType: 'organization',
          targetId: org.id,
          details: {
            amount: record.amount,
            external_ref: record.external_ref,
            refund_of: record.refund_of,
            ...(record.reason && { reason: record.reason }),
          },
        });
        return created!;
      });
      return { external_ref: record.external_ref, status: 'recorded', entry_id: entry.id, message: null };
    } catch (error) {
      // The same refund recorded by a request racing this one.
      if ((error as { code?: string }).code === '23505')
        return { external_ref: record.external_ref, status: 'duplicate', entry_id: null, message: null };
      // An organization deleted meanwhile, or a rule the refund breaks.
      if (error instanceof RuleError || error instanceof NotFoundError) return rejected(error.message);
      throw error;
    }
  }

  /**
   * The console's usage import (the route requires credits.import_usage): usage events for
   * the caller's whole tree, charged by the same engine as the machine API (each idempotent
   * by its id per organization, one outcome per event), then refunds, each standing alone.
   */
  async function importUsage(
    caller: Caller,
    input: { events?: UsageEvent[]; refunds?: RefundInput[] },
    info: ClientInfo,
  ): Promise<UsageImportResult> {
    const events = input.events ?? [];
    const batch =
      events.length > 0
        ? await usage.record({ kind: 'user', caller }, events, info)
        : { results: [], accepted: 0, duplicates: 0, rejected: 0 };
    const refunds: RefundResult[] = [];
    // After the events, so a refund may name an event of the same import.
    for (const record of input.refunds ?? []) refunds.push(await refund(caller, record, info));
    return { ...batch, refunds };
  }

  return { importUsage };
}
