import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  IDENTITY,
  MESSAGES,
  domainState,
  mayApproveDomainClaim,
  mayManageIdentity,
  verificationRecordName,
  verificationRecordValue,
  type ClaimDomainInput,
  type IdentityDomain,
} from '@console/domain';
import type { Config } from '../../config.ts';
import type { DB, Executor } from '../../db/schema.ts';
import { auditAction } from '../../lib/audit.ts';
import { requireInSubtree } from '../../lib/authorize.ts';
import type { Caller } from '../../lib/caller.ts';
import { lookupTxt } from '../../lib/dns-txt.ts';
import { ConflictError, ForbiddenError, NotFoundError, RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';

const m = MESSAGES.identity;

interface OrgRef {
  id: string;
  path: string;
}

/** An organization's claims, oldest first, with the record each must publish. */
export async function listDomains(organizationId: string, executor: Executor): Promise<IdentityDomain[]> {
  const rows = await executor
    .selectFrom('identity_domains as d')
    .leftJoin('users as a', 'a.id', 'd.approved_by')
    .select([
      'd.id',
      'd.domain',
      'd.verification_token',
      'd.verified_at',
      'd.approved_at',
      'a.email as approved_by',
      'd.checked_at',
      'd.check_error',
      'd.created_at',
    ])
    .where('d.organization_id', '=', organizationId)
    .orderBy('d.created_at')
    .orderBy('d.id')
    .execute();
  return rows.map(({ verification_token, ...row }) => ({
    ...row,
    state: domainState(row),
    record_name: verificationRecordName(row.domain),
    record_value: verificationRecordValue(verification_token),
  }));
}

/**
 * Domain claims. Any organization may hold a pending claim of any domain; the claim takes
 * effect when the domain's TXT record shows its token (or a house admin approves it), and at
 * most one claim per domain is in effect: the partial unique index decides a race, and the
 * loser is told the domain is taken.
 */
export function createIdentityDomains({ db, config }: { db: Kysely<DB>; config: Pick<Config, 'dnsServers'> }) {
  const requireManage = (caller: Caller, org: OrgRef) => {
    if (!mayManageIdentity(caller, org)) throw new ForbiddenError(m.onlyOwnAdmins);
  };

  const claimOf = async (executor: Executor, organizationId: string, domainId: string) => {
    const claim = await executor
      .selectFrom('identity_domains')
      .selectAll()
      .where('id', '=', domainId)
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    if (!claim) throw new NotFoundError(m.domainNotFound);
    return claim;
  };

  const takenElsewhere = async (executor: Executor, organizationId: string, domain: string) =>
    !!(await executor
      .selectFrom('identity_domains')
      .select('id')
      .where('domain', '=', domain)
      .where('organization_id', '!=', organizationId)
      .where((eb) => eb.or([eb('verified_at', 'is not', null), eb('approved_at', 'is not', null)]))
      .executeTakeFirst());

  async function claim(caller: Caller, org: OrgRef, input: ClaimDomainInput, info: ClientInfo): Promise<void> {
    requireManage(caller, org);
    await db.transaction().execute(async (trx) => {
      // The organization's row is locked so two claims at once count each other.
      await trx.selectFrom('organizations').select('id').where('id', '=', org.id).forUpdate().execute();
      const own = await trx.selectFrom('identity_domains').select(['domain']).where('organization_id', '=', org.id).execute();
      if (own.some((d) => d.domain === input.domain)) throw new ConflictError(m.domainClaimedAlready);
      if (own.length >= IDENTITY.maxDomains) throw new RuleError(m.tooManyDomains(IDENTITY.maxDomains));
      if (await takenElsewhere(trx, org.id, input.domain)) throw new ConflictError(m.domainTaken);
      const created = await trx
        .insertInto('identity_domains')
        .values({
          organization_id: org.id,
          domain: input.domain,
          verification_token: randomBytes(18).toString('base64url'),
          created_by: caller.userId,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await auditAction(trx, caller, info, {
        organizationId: org.id,
        action: 'identity.domain_claimed',
        targetType: 'identity_domain',
        targetId: created.id,
        details: { domain: input.domain },
      });
    });
  }

  /**
   * Looks the record up now. What the lookup found is kept on the claim (the page shows it), so
   * a failed check is written before the 422 that reports it.
   */
  async function verify(caller: Caller, org: OrgRef, domainId: string, info: ClientInfo): Promise<void> {
    requireManage(caller, org);
    const found = await claimOf(db, org.id, domainId);
    if (found.verified_at || found.approved_at) return;
    const name = verificationRecordName(found.domain);
    const lookup = await lookupTxt(name, config.dnsServers);
    const expected = verificationRecordValue(found.verification_token);
    const ok = 'found' in lookup && lookup.found.some((text) => text.trim() === expected);
    if (!ok) {
      const problem = 'failed' in lookup ? `${m.domainNotVerified(name)} (DNS: ${lookup.failed})` : m.domainNotVerified(name);
      await db
        .updateTable('identity_domains')
        .set({ checked_at: new Date().toISOString(), check_error: problem })
        .where('id', '=', found.id)
        .execute();
      throw new RuleError(problem);
    }
    await db.transaction().execute(async (trx) => {
      if (await takenElsewhere(trx, org.id, found.domain)) throw new ConflictError(m.domainTaken);
      const now = new Date().toISOString();
      const updated = await trx
        .updateTable('identity_domains')
        .set({ verified_at: now, checked_at: now, check_error: null })
        .where('id', '=', found.id)
        .where('verified_at', 'is', null)
        .where('approved_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      if (!updated) return;
      await auditAction(trx, caller, info, {
        organizationId: org.id,
        action: 'identity.domain_verified',
        targetType: 'identity_domain',
        targetId: found.id,
        details: { domain: found.domain, record: name },
      });
    });
  }

  /** A house admin puts a claim in effect by hand, for any organization in the tree. */
  async function approve(caller: Caller, orgId: string, domainId: string, info: ClientInfo): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('organizations')
        .select(['id', 'path'])
        .where('id', '=', orgId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      const org = requireInSubtree(caller, row, MESSAGES.organizations.notFound);
      if (!mayApproveDomainClaim(caller, org)) throw new ForbiddenError(m.onlyHouseApproves);
      const found = await claimOf(trx, org.id, domainId);
      if (found.verified_at || found.approved_at) throw new ConflictError(m.domainInEffect);
      if (await takenElsewhere(trx, org.id, found.domain)) throw new ConflictError(m.domainTaken);
      await trx
        .updateTable('identity_domains')
        .set({ approved_at: new Date().toISOString(), approved_by: caller.userId })
        .where('id', '=', found.id)
        .execute();
      await auditAction(trx, caller, info, {
        organizationId: org.id,
        action: 'identity.domain_approved',
        targetType: 'identity_domain',
        targetId: found.id,
        details: { domain: found.domain },
      });
    });
  }

  /** Withdraws a claim; the last domain in effect stays while single sign-on is enforced (nobody could reach the provider). */
  async function remove(caller: Caller, org: OrgRef, domainId: string, info: ClientInfo): Promise<void> {
    requireManage(caller, org);
    await db.transaction().execute(async (trx) => {
      const provider = await trx
        .selectFrom('identity_providers')
        .select('enforce_sso')
        .where('organization_id', '=', org.id)
        .forUpdate()
        .executeTakeFirst();
      const found = await claimOf(trx, org.id, domainId);
      if (provider?.enforce_sso && (found.verified_at || found.approved_at)) {
        const others = await trx
          .selectFrom('identity_domains')
          .select('id')
          .where('organization_id', '=', org.id)
          .where('id', '!=', found.id)
          .where((eb) => eb.or([eb('verified_at', 'is not', null), eb('approved_at', 'is not', null)]))
          .executeTakeFirst();
        if (!others) throw new RuleError(m.enforceNeedsDomain);
      }
      await trx.deleteFrom('identity_domains').where('id', '=', found.id).execute();
      await auditAction(trx, caller, info, {
        organizationId: org.id,
        action: 'identity.domain_removed',
        targetType: 'identity_domain',
        targetId: found.id,
        details: { domain: found.domain },
      });
    });
  }

  return { claim, verify, approve, remove };
}
