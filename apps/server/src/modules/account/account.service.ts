import { createEnrollment } from './enroll.ts';
import { createFactorChanges } from './manage.ts';
import { createFactorsStatus } from './factors.ts';
import type { AccountDeps } from './queries.ts';
import { createOwnPasskeys } from './passkeys.ts';
import { createOwnSessions } from './sessions.ts';

/** The signed-in person's own account: second factors and sessions. */
export function createAccountService(deps: AccountDeps) {
  const { factorsOf } = createFactorsStatus(deps);
  const { startTotp, confirmTotp } = createEnrollment(deps);
  const { removeTotp, regenerateRecoveryCodes } = createFactorChanges(deps);
  const sessions = createOwnSessions(deps);
  const passkeys = createOwnPasskeys(deps);
  return {
    factorsOf,
    startTotp,
    confirmTotp,
    removeTotp,
    regenerateRecoveryCodes,
    sessions: sessions.list,
    endSession: sessions.endOne,
    endOtherSessions: sessions.endOthers,
    passkeys: passkeys.list,
    passkeyRegistrationOptions: passkeys.registrationOptions,
    addPasskey: passkeys.add,
    renamePasskey: passkeys.rename,
    passkeyCheckOptions: passkeys.checkOptions,
    removePasskey: passkeys.remove,
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
