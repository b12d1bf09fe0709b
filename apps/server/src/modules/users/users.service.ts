import { createAccounts } from './accounts.ts';
import { createUserReads, type UsersDeps } from './queries.ts';
import { createUserRead } from './read.ts';
import { createUserUpdate } from './update.ts';
import { createEndSessions } from './end-sessions.ts';
import { createResetFactors } from './reset-factors.ts';

/** The users service: profiles, lists, edits, roles (with the last-admin rule), deactivation. */
export function createUsersService({ db, readDb = db, organizations, mailer }: UsersDeps) {
  const reads = createUserReads(db);
  const accounts = createAccounts(db);
  const { list, get } = createUserRead({ db: readDb, organizations, reads });
  const { update, updateMe, deactivate, changeRole } = createUserUpdate({ db, reads });
  const { endSessions } = createEndSessions({ db, reads });
  const { resetFactors } = createResetFactors({ db, mailer, reads });

  return {
    getProfile: reads.getProfile,
    ...accounts,
    list,
    get,
    updateMe,

    /** Admins and managers edit people of their organization or a direct child; a user edits only themselves. */
    update,
    changeRole,
    deactivate,
    endSessions,
    resetFactors,
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
