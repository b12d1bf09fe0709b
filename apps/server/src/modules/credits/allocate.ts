import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { mayAllocateFrom, type AllocationInput, type AllocationResult } from '@console/domain';
import { preparedStatement } from '../../db/connection.ts';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { storedTerms, type StoredTerms } from '../../lib/grant-terms.ts';
import { c, refusalError, refusalOf, type CreditsDeps } from './queries.ts';

/** How long an Idempotency-Key is remembered; a retry after that is a new request. */
const IDEMPOTENCY_WINDOW = sql`interval '24 hours'`;

interface AllocationCall {
  user: string;
  org: string;
  reach: string;
  sourceOk: boolean;
  to: string;
  amount: string;
  notes: string | null;
  key: string | null;
  requestHash: string;
  ip: string | null;
  requestId: string | null;
  terms: StoredTerms | null;
}

/** The allocation's one statement (db/rules/functions); its text never changes, only the values. */
const allocation = (a: AllocationCall) => sql<{ result: AllocationResult }>`
  select credits_allocate(${a.user}::uuid, ${a.org}::uuid, ${a.reach}::text, ${a.sourceOk}::boolean, ${a.to}::uuid,
    ${a.amount}::text, ${a.notes}::text, ${a.key}::text, ${a.requestHash}::text, ${IDEMPOTENCY_WINDOW},
    ${a.ip}::text, ${a.requestId}::text, ${a.terms === null ? null : JSON.stringify(a.terms)}::jsonb) as result`;

export function createAllocate({ db, organizations }: Pick<CreditsDeps, 'db' | 'organizations'>) {
  // Every allocation sends the same text: on PostgreSQL each connection parses it once.
  preparedStatement(
    allocation({
      user: '',
      org: '',
      reach: '',
      sourceOk: false,
      to: '',
      amount: '',
      notes: null,
      key: null,
      requestHash: '',
      ip: null,
      requestId: null,
      terms: null,
    }).compile(db).sql,
  );

  /**
   * One call of `credits_allocate` (db/rules/functions), run as a single statement outside any
   * transaction: idempotency, scope, locks, movement, entries, audit row and the recorded
   * answer in one round trip. The caller's facts come from authentication; the function
   * re-reads the target's and, under the locks, both organizations'.
   */
  async function allocate(
    caller: Caller,
    input: AllocationInput & { amount: string },
    idempotencyKey: string | null,
    info: ClientInfo,
  ): Promise<AllocationResult> {
    const terms = await storedTerms(db, input.terms);
    const request = {
      from_org_id: input.from_org_id,
      to_org_id: input.to_org_id,
      amount: input.amount,
      notes: input.notes ?? null,
      ...(terms ? { terms } : {}),
    };
    const requestHash = createHash('sha256').update(JSON.stringify(request)).digest('hex');
    try {
      const { rows } = await allocation({
        user: caller.userId,
        org: caller.organization.id,
        reach: caller.organization.path,
        sourceOk: mayAllocateFrom(caller, { id: input.from_org_id }),
        to: input.to_org_id,
        amount: input.amount,
        notes: request.notes,
        key: idempotencyKey,
        requestHash,
        ip: info.ip,
        requestId: info.requestId,
        terms,
      }).execute(db);
      return rows[0]!.result;
    } catch (error) {
      const reason = refusalOf(error);
      // Another organization than the caller's own: 404 when the caller cannot see it, else 403.
      if (reason === 'not_own_source') {
        await organizations.visible(caller, input.from_org_id);
        throw new ForbiddenError(c.onlyOwnOrganization);
      }
      throw reason ? refusalError(reason, error) : error;
    }
  }

  return { allocate };
}
