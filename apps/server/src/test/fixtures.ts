import type { Kysely } from 'kysely';
import { parentTypeOf, type OrgType } from '@console/domain';
import type { DB } from '../db/schema.ts';
import { hashPassword } from '../lib/secrets.ts';

/** Rows written straight to the database, for arranging a test (the API under test reads them). */
export async function insertOrg(db: Kysely<DB>, org: { name: string; type: OrgType; parentId?: string | null }) {
  const row = await db
    .insertInto('organizations')
    .values({
      name: org.name,
      org_type: org.type,
      parent_org_id: org.parentId ?? null,
      parent_org_type: org.parentId ? parentTypeOf(org.type) : null,
    })
    .returning(['id', 'path'])
    .executeTakeFirstOrThrow();
  await db.insertInto('organization_billing_settings').values({ organization_id: row.id }).execute();
  return row;
}

export async function houseId(db: Kysely<DB>): Promise<string> {
  const row = await db.selectFrom('organizations').select('id').where('org_type', '=', 'house').executeTakeFirstOrThrow();
  return row.id;
}

export async function insertUser(
  db: Kysely<DB>,
  user: { email: string; password: string; role: string; organizationId: string; status?: string },
) {
  return db
    .insertInto('users')
    .values({
      email: user.email,
      password_hash: await hashPassword(user.password),
      first_name: 'Test',
      last_name: 'User',
      role: user.role,
      organization_id: user.organizationId,
      status: user.status ?? 'active',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}
