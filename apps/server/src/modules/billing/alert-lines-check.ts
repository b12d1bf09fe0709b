import { sql, type Kysely } from 'kysely';
import { toCents, type AlertLineKind, type AlertLineWindow } from '@console/domain';
import type { DB, Executor } from '../../db/schema.ts';
import { usageFigures } from '../../lib/usage-forecast.ts';

/** Lines measured in one transaction. */
export const ALERT_LINE_BATCH = 50;

interface DueLine {
  id: string;
  organization_id: string;
  kind: Exclude<AlertLineKind, 'balance'>;
  bound: string;
  cap_window: AlertLineWindow | null;
  /** Never measured since it was set: its first measure alerts nobody. */
  fresh: boolean;
}

/** What a percent line reads: the share of its window's cap charged, in percent cut to 2 decimals; null without such a cap. */
async function capPercent(executor: Executor, organizationId: string, window: AlertLineWindow): Promise<string | null> {
  const { rows } = await sql<{ percent: string }>`
    select trunc(case when u.cap = 0 then 100 else u.charged * 100 / u.cap end, 2)::text as percent
    from alert_cap_used(${organizationId}, ${window}) u`.execute(executor);
  return rows[0]?.percent ?? null;
}

/** The days of runway at the dashboard's forecast rate (the same figures, the same rule); null without usage. */
async function runwayDays(executor: Executor, organizationId: string): Promise<string | null> {
  const row = await executor
    .selectFrom('organization_billing_settings')
    .select(sql<string>`credit_balance::text`.as('balance'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return (await usageFigures(executor, organizationId, row.balance)).runway_days;
}

/**
 * Measures one batch of the percent-of-cap and runway lines not measured for `everyMs`: takes
 * them with `for update skip locked` (several server processes share them, none measures a
 * line another holds), reads each value, and records it through alert_line_measure, which
 * queues one alert per crossing and re-arms a line that came back, all in one transaction: a
 * crossing is seen and alerted exactly once. A cap line's value comes back under its bound
 * when its window resets. Answers how many lines were measured.
 */
export async function measureAlertLines(db: Kysely<DB>, { everyMs = 60_000 }: { everyMs?: number } = {}): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { rows: lines } = await sql<DueLine>`
      select l.id, l.organization_id, l.kind, l.bound::text as bound, l.cap_window, l.checked_at is null as fresh
      from alert_lines l
      where l.kind <> 'balance'
        and (l.checked_at is null or l.checked_at <= now() - make_interval(secs => ${everyMs / 1000}))
      order by l.checked_at nulls first, l.id
      limit ${ALERT_LINE_BATCH}
      for update skip locked`.execute(trx);
    const runways = new Map<string, string | null>();
    for (const line of lines) {
      let value: string | null;
      let crossed: boolean;
      if (line.kind === 'cap_percent') {
        value = await capPercent(trx, line.organization_id, line.cap_window ?? 'month');
        crossed = value !== null && toCents(value) >= toCents(line.bound);
      } else {
        if (!runways.has(line.organization_id)) runways.set(line.organization_id, await runwayDays(trx, line.organization_id));
        value = runways.get(line.organization_id)!;
        crossed = value !== null && toCents(value) < toCents(line.bound);
      }
      if (line.fresh) {
        await sql`update alert_lines set crossed = ${crossed}::boolean, value = ${value}::numeric, checked_at = now(),
            crossed_at = case when ${crossed}::boolean then coalesce(crossed_at, now()) end
          where id = ${line.id}`.execute(trx);
      } else {
        await sql`select alert_line_measure(${line.id}::uuid, ${value}::numeric, ${crossed}::boolean)`.execute(trx);
      }
    }
    return lines.length;
  });
}
