import { sql } from 'kysely';
import type { Factors } from '@console/domain';
import type { Caller } from '../../lib/caller.ts';
import type { AccountDeps } from './queries.ts';

/** The person's own second factors: a confirmed authenticator app, and the recovery codes still unused. */
export function createFactorsStatus({ db }: Pick<AccountDeps, 'db'>) {
  async function factorsOf(caller: Caller): Promise<Factors> {
    const app = await db
      .selectFrom('totp_factors')
      .select('confirmed_at')
      .where('user_id', '=', caller.userId)
      .where('confirmed_at', 'is not', null)
      .executeTakeFirst();
    const codes = await db
      .selectFrom('recovery_codes')
      .select([
        sql<number>`(count(*) filter (where used_at is null))::int`.as('left'),
        sql<string | null>`max(created_at)`.as('created_at'),
      ])
      .where('user_id', '=', caller.userId)
      .executeTakeFirstOrThrow();
    const keys = await db
      .selectFrom('passkeys')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('user_id', '=', caller.userId)
      .executeTakeFirstOrThrow();
    return {
      totp: { enrolled: app !== undefined, enrolled_at: app?.confirmed_at ?? null },
      recovery_codes: { left: codes.left, created_at: codes.created_at ? new Date(codes.created_at).toISOString() : null },
      passkeys: { count: keys.n },
    };
  }

  return { factorsOf };
}
