import { sql } from 'kysely';
import { ERROR_CODES, MESSAGES, MFA } from '@console/domain';
import type { Executor } from '../db/schema.ts';
import type { Caller } from './caller.ts';
import { AppError } from './errors.ts';

/** A session that has not proved it is its person recently enough: 401 `step_up_required`, and nothing changes. */
export class StepUpRequiredError extends AppError {
  constructor() {
    super(401, ERROR_CODES.stepUpRequired, MESSAGES.auth.stepUpRequired);
  }
}

/**
 * Moving money or secrets needs a session that proved a second factor (or the password of a
 * person without one) within the step-up window; otherwise 401 `step_up_required`. Call it
 * before anything changes. Routes marked `stepUp: 'always'` are checked by the route layer;
 * a `conditional` route's handler calls it when its rule asks.
 */
export function requireStepUp(caller: Caller): void {
  if (!(caller.stepUpFreshUntil > Date.now())) throw new StepUpRequiredError();
}

/** Whether an amount (exact decimal text) is above the house's step-up threshold, compared exactly by the database. */
export async function aboveStepUpThreshold(db: Executor, amount: string): Promise<boolean> {
  const row = await db
    .selectFrom('global_settings')
    .select(sql<boolean>`step_up_threshold < ${amount}::numeric`.as('above'))
    .executeTakeFirst();
  // The row exists from the migrations on; without it the default threshold holds.
  if (!row) {
    const result = await sql<{ above: boolean }>`select ${MFA.stepUpDefaultThreshold}::numeric < ${amount}::numeric as above`.execute(db);
    return result.rows[0]!.above;
  }
  return row.above;
}

/** An allocation or adjustment above the house's threshold asks for a step-up. */
export async function requireStepUpAbove(db: Executor, caller: Caller, amount: string): Promise<void> {
  if (caller.stepUpFreshUntil > Date.now()) return;
  if (await aboveStepUpThreshold(db, amount)) throw new StepUpRequiredError();
}

/** Records that the session just proved it is its person (a sign-in or a step-up); answers when the proof was given (Unix ms). */
export async function markSteppedUp(db: Executor, sessionId: string): Promise<number> {
  const row = await db
    .updateTable('refresh_sessions')
    .set({ stepped_up_at: sql`now()` })
    .where('id', '=', sessionId)
    .returning(sql<number>`(extract(epoch from stepped_up_at) * 1000)::float8`.as('ms'))
    .executeTakeFirstOrThrow();
  return row.ms;
}
