import { sql, type Kysely } from 'kysely';
import { parentTypeOf, type OrgType, type UserStatus } from '@console/domain';
import type { DB } from '../db/schema.ts';
import { hashPassword } from '../lib/secrets.ts';

/** Rows written straight to the database, for arranging a test (the API under test reads them). */
export async function insertOrg(db: Kysely<DB>, org: { id?: string; name: string; type: OrgType; parentId?: string | null }) {
  const row = await db
    .insertInto('organizations')
    .values({
      ...(org.id ? { id: org.id } : {}),
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
  user: { email: string; password: string; role: string; organizationId: string; status?: UserStatus },
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

export const PASSWORD = 'fixture-password';

/** A digest of whole tables (every column of every row), to show a request changed none of them. */
export async function tablesDigest(db: Kysely<DB>, tables: readonly (keyof DB)[]): Promise<string> {
  const digests = tables.map(
    (table) => sql`(select coalesce(md5(string_agg(x::text, ',' order by x::text)), '') from ${sql.table(table)} x)`,
  );
  const { rows } = await sql<{ digest: string }>`select concat_ws('|', ${sql.join(digests)}) as digest`.execute(db);
  return rows[0]!.digest;
}

/**
 * A small world for scope tests:
 *   house H ─ SA1 ─ A1 ─ T1, T2
 *           │     └ A2
 *           └ SA2 ─ A3
 *   house H2 ─ SA3 (an unrelated tree)
 * with a user of every level in H, SA1, A1 and T1, e-mailed `<level>@<org>.test`.
 */
export async function buildWorld(db: Kysely<DB>) {
  const H = { id: await houseId(db) };
  const SA1 = await insertOrg(db, { name: 'Super One', type: 'super_agency', parentId: H.id });
  const SA2 = await insertOrg(db, { name: 'Super Two', type: 'super_agency', parentId: H.id });
  const A1 = await insertOrg(db, { name: 'Agency One', type: 'agency', parentId: SA1.id });
  const A2 = await insertOrg(db, { name: 'Agency Two', type: 'agency', parentId: SA1.id });
  const A3 = await insertOrg(db, { name: 'Agency Three', type: 'agency', parentId: SA2.id });
  const T1 = await insertOrg(db, { name: 'Tenant One', type: 'tenant', parentId: A1.id });
  const T2 = await insertOrg(db, { name: 'Tenant Two', type: 'tenant', parentId: A1.id });
  const H2 = await insertOrg(db, { name: 'Other House', type: 'house' });
  const SA3 = await insertOrg(db, { name: 'Other Super', type: 'super_agency', parentId: H2.id });
  const orgs = { H, SA1, SA2, A1, A2, A3, T1, T2, H2, SA3 };
  const homes = { H: 'house', SA1: 'super_agency', A1: 'agency', T1: 'tenant' } as const;
  const users: Record<string, string> = {};
  for (const [key, type] of Object.entries(homes)) {
    const levels = type === 'tenant' ? ['admin', 'manager', 'user'] : ['admin', 'manager', 'user', 'support'];
    for (const level of levels) {
      const email = `${level}@${key.toLowerCase()}.test`;
      await insertUser(db, { email, password: PASSWORD, role: `${type}_${level}`, organizationId: orgs[key as keyof typeof homes].id });
      users[`${key}.${level}`] = email;
    }
  }
  return { orgs, users };
}
