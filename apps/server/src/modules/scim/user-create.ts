import { sql } from 'kysely';
import { lockOrganizationScim } from '../../lib/scim-lock.ts';
import { MESSAGES, scimUserInputSchema, type ScimUser } from '@console/domain';
import { requireScimWritable } from './auth.ts';
import type { ScimActor, ScimDeps } from './context.ts';
import { ScimError, parseBody } from './errors.ts';
import { orgIdentity, scimAudit } from './org-facts.ts';
import { readUser } from './user-resource.ts';
import { emailOf, requireFreeEmail } from './user-write.ts';
import { textOf } from './user-patch-ops.ts';

/**
 * POST /Users: a person of the token's organization, without a password (they sign in
 * through the provider), at the default role (the just-in-time role, else `<type>_user`);
 * their groups may raise it. A person this provider deleted comes back under the same id.
 */
export function createUserCreate({ db, baseUrl }: ScimDeps) {
  async function create(actor: ScimActor, body: unknown): Promise<ScimUser> {
    requireScimWritable(actor);
    const input = parseBody(scimUserInputSchema, body);
    const email = emailOf(input.userName);
    const givenName = textOf('name.givenName', input.name?.givenName, 100);
    const familyName = textOf('name.familyName', input.name?.familyName, 100);
    const externalId = textOf('externalId', input.externalId, 500);
    const active = input.active ?? true;
    const org = actor.token.organization;
    return db.transaction().execute(async (trx) => {
      await lockOrganizationScim(trx, org.id);
      const facts = await orgIdentity(trx, org);
      const deleted = await requireFreeEmail(trx, org.id, email, null);
      const values = {
        email,
        first_name: givenName,
        last_name: familyName,
        role: facts.defaultRole,
        status: active ? ('active' as const) : ('inactive' as const),
        scim_external_id: externalId,
        scim_token_id: actor.token.id,
        password_hash: null,
        admin_since: null,
      };
      const id = deleted
        ? (
            await trx
              .updateTable('users')
              .set({ ...values, deleted_at: null, updated_at: sql`now()` })
              .where('id', '=', deleted.id)
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id
        : (
            await trx
              .insertInto('users')
              .values({ ...values, organization_id: org.id })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id;
      await scimAudit(trx, actor, {
        action: 'scim.user_created',
        targetType: 'user',
        targetId: id,
        details: {
          email,
          role: facts.defaultRole,
          active,
          ...(externalId && { external_id: externalId }),
          ...(deleted && { restored: true }),
        },
      });
      const user = await readUser(trx, org.id, id, baseUrl);
      if (!user) throw new ScimError(500, MESSAGES.generic.internal);
      return user;
    });
  }
  return { create };
}
