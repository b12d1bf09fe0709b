import { sql } from 'kysely';
import { alertLineDescription, type AlertLine } from '@console/domain';
import type { Executor } from '../db/schema.ts';

type LineRow = Omit<AlertLine, 'description'>;

/**
 * The organization's alert lines as the API shows them (the billing module's list and the
 * dashboard's attention list read the same rows), the threshold's line first, then oldest
 * first. A balance line's value is the balance now; the others' the background pass's last
 * measure.
 */
export async function readAlertLines(executor: Executor, organizationId: string, only?: { id?: string; crossed?: boolean }) {
  const { rows } = await sql<LineRow>`
    select l.id, l.kind, l.bound::text as bound, l.cap_window as window, l.low_balance_threshold, l.crossed,
      (case when l.kind = 'balance' then b.credit_balance else l.value end)::numeric(16, 2)::text as value,
      to_char(l.crossed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as crossed_at
    from alert_lines l
    join organization_billing_settings b on b.organization_id = l.organization_id
    where l.organization_id = ${organizationId}
      ${only?.id ? sql`and l.id = ${only.id}` : sql``}
      ${only?.crossed ? sql`and l.crossed` : sql``}
    order by l.low_balance_threshold desc, l.created_at, l.id`.execute(executor);
  return rows.map((row): AlertLine => ({ ...row, description: alertLineDescription(row.kind, row.bound, row.window) }));
}
