import { sql } from 'kysely';
import { USER_STATUSES, type UserStatus } from '@console/domain';
import type { Executor } from '../../db/schema.ts';

export async function teamFigures(db: Executor, organizationId: string) {
  const rows = await db
    .selectFrom('users')
    .select(['status', sql<number>`count(*)::int`.as('n')])
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null)
    .groupBy('status')
    .execute();
  const by_status = Object.fromEntries(USER_STATUSES.map((s) => [s, rows.find((r) => r.status === s)?.n ?? 0])) as Record<
    UserStatus,
    number
  >;
  return { total: rows.reduce((sum, r) => sum + r.n, 0), by_status };
}
