import type { StatementVerification } from '@console/domain';
import type { Caller } from '../../lib/caller.ts';
import { periodOf } from './period.ts';
import { readChain, type StatementsDeps } from './queries.ts';

/**
 * Whether a statement's verification code is still what the ledger holds: the organization's
 * chain is walked up to the month's end (or now, for the month under way) by
 * ledger_chain_check, which recomputes every entry's hash. It matches when that chain is whole
 * and its head is the code; otherwise the first entry that no longer fits is named. Read by the
 * statement's own readers (404 beyond them).
 */
export function createVerify({ db, organizations }: StatementsDeps) {
  async function verify(caller: Caller, organizationId: string, month: string, code: string): Promise<StatementVerification> {
    const period = periodOf(month);
    const org = await organizations.visible(caller, organizationId);
    const chain = await readChain(db, org.id, period);
    const whole = chain.reason === null;
    return {
      month,
      code,
      head: chain.head,
      matches: whole && chain.head === code,
      chain: {
        whole,
        checked: chain.checked,
        first_broken: chain.reason === null ? null : { id: chain.broken_id, seq: chain.broken_seq, reason: chain.reason },
      },
    };
  }

  return { verify };
}
