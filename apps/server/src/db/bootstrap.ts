import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';
import { generatePassword, hashPassword } from '../lib/secrets.ts';
import { writeAudit } from '../lib/audit.ts';
import { lockWhole } from '../lib/locks.ts';

export const DEFAULT_ADMIN_EMAIL = 'admin@example.com';
export const FIRST_HOUSE_NAME = 'House';

export interface FirstAdmin {
  email: string;
  /** Present only when it was generated here: it is shown once and never stored in clear. */
  generatedPassword: string | null;
}

/**
 * On an empty database, creates the house and its first house_admin. Returns null when
 * users already exist (nothing is changed then).
 */
export async function ensureFirstHouseAdmin(
  db: Kysely<DB>,
  admin: { email: string | null; password: string | null },
): Promise<FirstAdmin | null> {
  const email = admin.email ?? DEFAULT_ADMIN_EMAIL;
  const generatedPassword = admin.password ? null : generatePassword();
  const passwordHash = await hashPassword(admin.password ?? generatedPassword!);
  return db.transaction().execute(async (trx) => {
    // Several processes starting at once on an empty database would each find no user and
    // create a house: the first takes this lock, the others then find its admin.
    await lockWhole(trx, 'first_admin');
    const existing = await trx.selectFrom('users').select('id').limit(1).executeTakeFirst();
    if (existing) return null;
    const house = await trx
      .insertInto('organizations')
      .values({ name: FIRST_HOUSE_NAME, org_type: 'house', parent_org_id: null, parent_org_type: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.insertInto('organization_billing_settings').values({ organization_id: house.id }).execute();
    const user = await trx
      .insertInto('users')
      .values({
        email,
        password_hash: passwordHash,
        first_name: 'House',
        last_name: 'Admin',
        role: 'house_admin',
        organization_id: house.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await writeAudit(trx, {
      actorUserId: null,
      organizationId: house.id,
      action: 'bootstrap.first_house_admin',
      targetType: 'user',
      targetId: user.id,
    });
    return { email, generatedPassword };
  });
}
