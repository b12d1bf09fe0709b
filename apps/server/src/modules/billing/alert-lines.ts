import { sql, type Kysely } from 'kysely';
import {
  ALERT_LINES_MAX,
  MESSAGES,
  mayManageAlertLines,
  type AlertLine,
  type AlertLineBody,
  type AlertLineKind,
  type AlertLinesResponse,
  type AlertLineWindow,
  type AuditDetails,
} from '@console/domain';
import type { DB, Executor } from '../../db/schema.ts';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError, NotFoundError, RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { readAlertLines } from '../../lib/alert-lines.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';

const m = MESSAGES.alertLines;

/** A line as its audit rows keep it; the table's CHECKs hold its kind and window to the domain's lists. */
const facts = (line: { kind: string; bound: string; window: string | null }): AuditDetails<'alert_line.create'>['after'] => ({
  kind: line.kind as AlertLineKind,
  bound: line.bound,
  window: line.window as AlertLineWindow | null,
});

/**
 * An organization's alert lines: everyone who reads its billing lists them; its own admins
 * (`mayManageAlertLines`, as for the low-balance threshold) add, change and delete them.
 * Each change locks the organization's balance row first (the balance trigger measures its
 * balance lines under that lock), then the line. Setting or moving a line alerts nobody: a
 * balance line is crossed at once when the balance is below it, another kind is measured
 * afresh by the background pass without alerting; only a later crossing alerts.
 */
export function createAlertLines({ db, organizations }: { db: Kysely<DB>; organizations: OrganizationsService }) {
  /** The organization, checked for the caller's right to change its lines, with its balance row locked. */
  async function lockedTarget(trx: Executor, caller: Caller, id: string) {
    const target = await organizations.visible(caller, id, trx);
    if (!mayManageAlertLines(caller, target)) throw new ForbiddenError(m.onlyOwnAdmins);
    const balance = await trx
      .selectFrom('organization_billing_settings')
      .select(['credit_balance', 'low_balance_threshold'])
      .where('organization_id', '=', target.id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    return { target, balance };
  }

  async function lockedLine(trx: Executor, organizationId: string, lineId: string) {
    const line = await trx
      .selectFrom('alert_lines')
      .select(['id', 'kind', sql<string>`bound::text`.as('bound'), 'cap_window', 'low_balance_threshold'])
      .where('organization_id', '=', organizationId)
      .where('id', '=', lineId)
      .forUpdate()
      .executeTakeFirst();
    if (!line) throw new NotFoundError(m.notFound);
    return { ...line, window: line.cap_window };
  }

  /** A balance line is judged against the balance at once; a line of another kind waits for its next measure. */
  const state = (body: AlertLineBody, balance: string) =>
    body.kind === 'balance'
      ? sql`crossed = ${balance}::numeric < ${body.bound}::numeric, value = ${balance}::numeric,
          crossed_at = case when ${balance}::numeric < ${body.bound}::numeric then coalesce(crossed_at, now()) end, checked_at = now()`
      : sql`crossed = false, value = null, crossed_at = null, checked_at = null`;

  return {
    async list(caller: Caller, id: string): Promise<AlertLinesResponse> {
      const org = await organizations.visible(caller, id);
      return {
        organization_id: org.id,
        lines: await readAlertLines(db, org.id),
        can_manage: mayManageAlertLines(caller, org),
        max: ALERT_LINES_MAX,
      };
    },

    async create(caller: Caller, id: string, body: AlertLineBody, info: ClientInfo): Promise<AlertLine> {
      return db.transaction().execute(async (trx) => {
        const { target, balance } = await lockedTarget(trx, caller, id);
        const count = await trx
          .selectFrom('alert_lines')
          .select(sql<number>`count(*)::int`.as('n'))
          .where('organization_id', '=', target.id)
          .executeTakeFirstOrThrow();
        if (count.n >= ALERT_LINES_MAX) throw new RuleError(m.tooMany(ALERT_LINES_MAX));
        const window = body.kind === 'cap_percent' ? body.window : null;
        const { rows } = await sql<{ id: string }>`
          insert into alert_lines (organization_id, kind, bound, cap_window) values (${target.id}, ${body.kind}, ${body.bound}, ${window})
          returning id`.execute(trx);
        const lineId = rows[0]!.id;
        await sql`update alert_lines set ${state(body, balance.credit_balance)} where id = ${lineId}`.execute(trx);
        await auditAction(trx, caller, info, {
          organizationId: target.id,
          action: 'alert_line.create',
          targetType: 'organization',
          targetId: target.id,
          details: { line_id: lineId, after: facts({ ...body, window }) },
        });
        return (await readAlertLines(trx, target.id, { id: lineId }))[0]!;
      });
    },

    async update(caller: Caller, id: string, lineId: string, body: AlertLineBody, info: ClientInfo): Promise<AlertLine> {
      return db.transaction().execute(async (trx) => {
        const { target, balance } = await lockedTarget(trx, caller, id);
        const line = await lockedLine(trx, target.id, lineId);
        if (line.kind !== body.kind) throw new RuleError(m.kindFixed);
        const window = body.kind === 'cap_percent' ? body.window : null;
        if (line.low_balance_threshold) {
          // The threshold's column leads: its trigger moves the line, and the API's field reads the same.
          await trx
            .updateTable('organization_billing_settings')
            .set({ low_balance_threshold: body.bound, updated_at: sql`now()` })
            .where('organization_id', '=', target.id)
            .execute();
        } else if (line.bound !== body.bound || line.window !== window) {
          await sql`update alert_lines set bound = ${body.bound}, cap_window = ${window}, updated_at = now(), ${state(body, balance.credit_balance)}
            where id = ${line.id}`.execute(trx);
        }
        await auditAction(trx, caller, info, {
          organizationId: target.id,
          action: 'alert_line.update',
          targetType: 'organization',
          targetId: target.id,
          details: { line_id: line.id, before: facts(line), after: facts({ ...body, window }) },
        });
        return (await readAlertLines(trx, target.id, { id: line.id }))[0]!;
      });
    },

    async remove(caller: Caller, id: string, lineId: string, info: ClientInfo): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const { target } = await lockedTarget(trx, caller, id);
        const line = await lockedLine(trx, target.id, lineId);
        if (line.low_balance_threshold) {
          // No threshold is a threshold of 0, which removes its line.
          await trx
            .updateTable('organization_billing_settings')
            .set({ low_balance_threshold: '0', updated_at: sql`now()` })
            .where('organization_id', '=', target.id)
            .execute();
        } else {
          await trx.deleteFrom('alert_lines').where('id', '=', line.id).execute();
        }
        await auditAction(trx, caller, info, {
          organizationId: target.id,
          action: 'alert_line.delete',
          targetType: 'organization',
          targetId: target.id,
          details: { line_id: line.id, before: facts(line) },
        });
      });
    },
  };
}

export type AlertLinesService = ReturnType<typeof createAlertLines>;
