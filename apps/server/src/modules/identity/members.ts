import { sql, type Transaction } from 'kysely';
import { isJitRoleAllowed, isSingleLineText, isStorableText, type OrgType } from '@console/domain';
import type { DB } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import type { ClientInfo } from '../../lib/request-info.ts';

/** Who the provider signed in: its subject, and the e-mail and name its claims gave. */
export interface SignedInIdentity {
  subject: string;
  email: string;
  name: string | null;
}

export type MemberOutcome =
  | { kind: 'member'; userId: string }
  | { kind: 'refused'; userId: string | null; why: string }
  | { kind: 'not_member' }
  | { kind: 'inactive'; userId: string };

/** A provider's name as a first and a last name: one line of storable text, cut to a sane length. */
function splitName(name: string | null): { first_name: string | null; last_name: string | null } {
  const clean = name?.trim().replace(/\s+/g, ' ').slice(0, 200) ?? '';
  if (!clean || !isSingleLineText(clean) || !isStorableText(clean)) return { first_name: null, last_name: null };
  const space = clean.indexOf(' ');
  return space < 0
    ? { first_name: clean.slice(0, 100), last_name: null }
    : { first_name: clean.slice(0, space).slice(0, 100), last_name: clean.slice(space + 1).slice(0, 100) };
}

/**
 * The member a provider's sign-in names: first by the subject it signed in as before (which
 * survives a changed e-mail), then by e-mail. A person of another organization is never
 * signed in by this one's provider; one not yet a member joins at the just-in-time role when
 * the organization allows it (never an admin role). The subject is then remembered.
 */
export async function memberFor(
  trx: Transaction<DB>,
  org: { id: string; org_type: OrgType },
  jitRole: string | null,
  identity: SignedInIdentity,
  client: ClientInfo,
): Promise<MemberOutcome> {
  const people = trx.selectFrom('users').select(['id', 'organization_id', 'status', 'deleted_at']);
  const linked = await people
    .where('id', '=', (eb) =>
      eb.selectFrom('sso_identities').select('user_id').where('organization_id', '=', org.id).where('subject', '=', identity.subject),
    )
    .executeTakeFirst();
  let person = linked?.organization_id === org.id ? linked : undefined;
  if (!person) {
    const byEmail = await people.where(sql`lower(email)`, '=', identity.email.toLowerCase()).executeTakeFirst();
    if (byEmail && byEmail.organization_id !== org.id)
      return { kind: 'refused', userId: byEmail.id, why: 'member of another organization' };
    person = byEmail;
  }
  if (!person) {
    if (!jitRole || !isJitRoleAllowed(jitRole, org.org_type)) return { kind: 'not_member' };
    const created = await trx
      .insertInto('users')
      .values({
        email: identity.email,
        // No password: the provider signs them in (a password can be set later by reset, when not enforced).
        password_hash: null,
        ...splitName(identity.name),
        role: jitRole,
        organization_id: org.id,
        status: 'active',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await writeAudit(trx, {
      actorUserId: created.id,
      organizationId: org.id,
      action: 'identity.jit_member',
      targetType: 'user',
      targetId: created.id,
      details: { email: identity.email, role: jitRole },
      ip: client.ip,
      requestId: client.requestId,
    });
    person = { id: created.id, organization_id: org.id, status: 'active', deleted_at: null };
  }
  if (person.status !== 'active' || person.deleted_at) return { kind: 'inactive', userId: person.id };
  await trx
    .insertInto('sso_identities')
    .values({ organization_id: org.id, subject: identity.subject, user_id: person.id, last_sign_in_at: sql`now()` })
    .onConflict((oc) => oc.columns(['organization_id', 'subject']).doUpdateSet({ user_id: person.id, last_sign_in_at: sql`now()` }))
    .execute();
  return { kind: 'member', userId: person.id };
}
