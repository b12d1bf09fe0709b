import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Passkeys } from '../../lib/passkeys.ts';
import type { SecondFactors } from '../../lib/second-factor.ts';

/** What the account service, and each of its use cases, is built from. */
export interface AccountDeps {
  db: Kysely<DB>;
  factors: SecondFactors;
  passkeys: Passkeys;
}

/** Why a person's sessions were ended, as `refresh_sessions.revoked_reason` keeps it. */
export const ENDED = {
  factorAdded: 'second factor added',
  factorRemoved: 'second factor removed',
  byPerson: 'ended by its person',
} as const;
