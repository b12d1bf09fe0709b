import { sql, type RawBuilder } from 'kysely';
import { mfaEnrollmentOf, mfaRequirementOf, type MfaPolicyLink, type SessionMethod } from '@console/domain';

/**
 * The server's half of the second-factor requirement: the policies of an organization's chain
 * (the house down to itself) and whether a person has a factor, read as columns of the query
 * that loads them; the domain's rule decides from those. Sign-in, the profile, the route
 * guard and the coverage list all read through here, so they never disagree.
 */

/**
 * The policies of the organization at `path` and of every one above it, with their depth (the
 * house is 0). Every authenticated request reads this, so it is found from the path's own ids
 * by the policies' primary key: its cost does not grow with the organizations or the policies.
 */
export function mfaChainOf(path: RawBuilder<unknown> | ReturnType<typeof sql.ref>): RawBuilder<MfaPolicyLink[]> {
  return sql<MfaPolicyLink[]>`(select coalesce(json_agg(json_build_object(
      'organization_id', p.organization_id,
      'depth', array_position(chain.ids, p.organization_id) - 1,
      'own_since', p.own_since,
      'subtree_since', p.subtree_since,
      'admins_since', p.admins_since,
      'grace_days', p.grace_days)), '[]'::json)
    from (select string_to_array(trim(both '/' from ${path}), '/')::uuid[] as ids) chain
    join mfa_policies p on p.organization_id = any(chain.ids))`;
}

/** Whether the person has a second factor: a confirmed authenticator app or a passkey. */
export function hasFactorOf(userId: RawBuilder<unknown> | ReturnType<typeof sql.ref>): RawBuilder<boolean> {
  return sql<boolean>`(exists(select 1 from totp_factors f where f.user_id = ${userId} and f.confirmed_at is not null)
    or exists(select 1 from passkeys k where k.user_id = ${userId}))`;
}

/** The row columns the rule needs, under the names `enrollmentOf` reads. */
export interface MfaFacts {
  mfa_chain: MfaPolicyLink[] | string;
  has_factor: boolean;
  role: string;
  created_at: string | Date;
  admin_since: string | Date | null;
  /** How the session asking began, when one does: a session begun at the identity provider is asked nothing. */
  session_method?: SessionMethod | null;
}

/** What the policy asks of a person (in the session that asks, if any): a factor by a deadline, or nothing (null). */
export function enrollmentOf(row: MfaFacts): { required: true; deadline: string } | null {
  const chain = typeof row.mfa_chain === 'string' ? (JSON.parse(row.mfa_chain) as MfaPolicyLink[]) : row.mfa_chain;
  const iso = (at: string | Date) => (at instanceof Date ? at.toISOString() : at);
  const person = { role: row.role, joined_at: iso(row.created_at), admin_since: row.admin_since && iso(row.admin_since) };
  return mfaEnrollmentOf(mfaRequirementOf(chain, person).deadline, row.has_factor, row.session_method);
}
