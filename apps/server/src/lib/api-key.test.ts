import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Database } from '../db/connection.ts';
import { freshDatabase } from '../test/harness.ts';
import { insertOrg } from '../test/fixtures.ts';
import { generateKey, hashKey, parse, verifyKey, type VerifiedKey } from './api-key.ts';

let database: Database;
let house: { id: string; path: string };
let agency: { id: string; path: string };

async function storeKey(organizationId: string, options: { revoked?: boolean } = {}) {
  const made = generateKey();
  const row = await database.db
    .insertInto('api_keys')
    .values({
      organization_id: organizationId,
      name: 'runtime',
      prefix: made.prefix,
      secret_hash: made.hash,
      scopes: ['usage:write'],
      ...(options.revoked && { revoked_at: new Date() }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { ...made, id: row.id };
}

beforeAll(async () => {
  database = await freshDatabase();
  house = await insertOrg(database.db, { name: 'House', type: 'house' });
  const sa = await insertOrg(database.db, { name: 'Super', type: 'super_agency', parentId: house.id });
  agency = await insertOrg(database.db, { name: 'Agency', type: 'agency', parentId: sa.id });
});
afterAll(async () => database?.close());

describe('API key format', () => {
  it('makes keys oc_<8 hex>_<64 hex> with a unique visible prefix, and keeps only their SHA-256', () => {
    const keys = Array.from({ length: 50 }, generateKey);
    for (const k of keys) {
      expect(k.key).toMatch(/^oc_[0-9a-f]{8}_[0-9a-f]{64}$/);
      expect(k.key.startsWith(`${k.prefix}_`)).toBe(true);
      expect(k.hash).toBe(hashKey(k.key));
      expect(k.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(parse(k.key)).toEqual({ prefix: k.prefix, key: k.key });
    }
    expect(new Set(keys.map((k) => k.key)).size).toBe(50);
  });

  it('parses only the key form', () => {
    for (const text of [
      '',
      null,
      undefined,
      'oc_',
      'oc_1234567_' + 'a'.repeat(64),
      'oc_123456789_' + 'a'.repeat(64),
      'oc_ABCDEF12_' + 'a'.repeat(64),
      'oc_12345678_' + 'a'.repeat(31),
      'oc_12345678_' + 'a'.repeat(129),
      'oc_12345678_' + 'a'.repeat(63) + '-',
      'xx_12345678_' + 'a'.repeat(64),
      ' oc_12345678_' + 'a'.repeat(64),
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig',
    ]) {
      expect(parse(text)).toBeNull();
    }
  });
});

describe('verifyKey', () => {
  it('answers the key with its organization and counts the use', async () => {
    const k = await storeKey(agency.id);
    const verified = await verifyKey(database.db, k.key);
    expect(verified).toEqual({
      id: k.id,
      name: 'runtime',
      prefix: k.prefix,
      scopes: ['usage:write'],
      rate_limit_per_minute: null,
      organization: {
        id: agency.id,
        name: 'Agency',
        org_type: 'agency',
        path: agency.path,
        status: 'active',
        deleted: false,
        ancestor_status: null,
      },
    });
    await verifyKey(database.db, k.key);
    const row = await database.db
      .selectFrom('api_keys')
      .select(['use_count', 'last_used_at'])
      .where('id', '=', k.id)
      .executeTakeFirstOrThrow();
    expect(String(row.use_count)).toBe('2');
    expect(row.last_used_at).not.toBeNull();
  });

  it('refuses a wrong secret with a known prefix, an unknown prefix, a revoked key and malformed text, counting no use', async () => {
    const k = await storeKey(agency.id);
    const wrong = `${k.prefix}_${'0'.repeat(64)}`;
    const unknown = { refused: 'unknown', key: null };
    expect(await verifyKey(database.db, wrong)).toEqual(unknown);
    expect(await verifyKey(database.db, `oc_00000000_${'0'.repeat(64)}`)).toEqual(unknown);
    expect(await verifyKey(database.db, k.key.slice(0, -1))).toEqual(unknown);
    expect(await verifyKey(database.db, `${k.key} `)).toEqual(unknown);
    const revoked = await storeKey(agency.id, { revoked: true });
    expect(await verifyKey(database.db, revoked.key)).toMatchObject({ refused: 'revoked', key: { id: revoked.id } });
    const rows = await database.db.selectFrom('api_keys').select('use_count').where('id', 'in', [k.id, revoked.id]).execute();
    expect(rows.map((r) => String(r.use_count))).toEqual(['0', '0']);
  });

  it('tells the organization standing: deleted, suspended, or frozen by an ancestor', async () => {
    const k = await storeKey(agency.id);
    await sql`update organizations set status = 'suspended' where id = ${house.id}`.execute(database.db);
    expect(((await verifyKey(database.db, k.key)) as VerifiedKey).organization).toMatchObject({
      status: 'active',
      ancestor_status: 'suspended',
      deleted: false,
    });
    await sql`update organizations set status = 'active' where id = ${house.id}`.execute(database.db);
    await sql`update organizations set status = 'inactive', deleted_at = now() where id = ${agency.id}`.execute(database.db);
    expect(((await verifyKey(database.db, k.key)) as VerifiedKey).organization).toMatchObject({
      status: 'inactive',
      ancestor_status: null,
      deleted: true,
    });
  });
});
