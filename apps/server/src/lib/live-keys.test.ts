import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '../db/connection.ts';
import { freshDatabase } from '../test/harness.ts';
import { insertOrg } from '../test/fixtures.ts';
import { insertApiKey } from '../test/usage-rows.ts';
import { createLiveKeys } from './live-keys.ts';

const madeUp = () => `oc_${randomBytes(4).toString('hex')}_${randomBytes(32).toString('hex')}`;

describe('the live keys a process reads', () => {
  let database: Database;
  let house: string;
  let org: string;
  beforeAll(async () => {
    database = await freshDatabase();
    house = (await insertOrg(database.db, { name: 'Keys House', type: 'house' })).id;
    org = (await insertOrg(database.db, { name: 'Keys Super Agency', type: 'super_agency', parentId: house })).id;
  });
  afterAll(async () => database?.close());

  it('answers from what it last read, and reads again on a miss at most once per interval, however many misses', async () => {
    let now = 1_000_000;
    const live = createLiveKeys(database.db, { reloadMs: 1000, now: () => now });
    const early = await insertApiKey(database.db, org);
    expect(await live.mayBeLive(early.key)).toBe(true);
    expect(await live.mayBeLive(madeUp())).toBe(false);
    // A wrong secret under a live key's prefix is no live key.
    expect(await live.mayBeLive(`${early.prefix}_${'0'.repeat(64)}`)).toBe(false);

    const late = await insertApiKey(database.db, org);
    now += 999;
    // A thousand misses within the interval read nothing: the key made since is not seen yet.
    for (let i = 0; i < 1000; i++) expect(await live.mayBeLive(madeUp())).toBe(false);
    expect(await live.mayBeLive(late.key)).toBe(false);
    now += 1;
    expect(await live.mayBeLive(late.key)).toBe(true);
  });

  it('holds live keys only: a previous secret in its grace period, not one past it; no revoked or expired key, nor one of a deleted organization', async () => {
    let now = 2_000_000;
    const live = createLiveKeys(database.db, { reloadMs: 1000, now: () => now });
    const next = () => {
      now += 1000;
    };
    const revoked = await insertApiKey(database.db, org, { revoked: true });
    const expired = await insertApiKey(database.db, org);
    await sql`update api_keys set expires_at = now() - interval '1 second' where id = ${expired.id}`.execute(database.db);
    const gone = (await insertOrg(database.db, { name: 'Deleted Agency', type: 'super_agency', parentId: house })).id;
    const orphan = await insertApiKey(database.db, gone);
    await sql`update organizations set deleted_at = now() where id = ${gone}`.execute(database.db);
    for (const key of [revoked, expired, orphan]) {
      next();
      expect(await live.mayBeLive(key.key)).toBe(false);
    }

    // A roll: the old secret becomes the previous one, within its grace period, then past it.
    const rolled = await insertApiKey(database.db, org);
    const fresh = await insertApiKey(database.db, org);
    const { secret_hash } = await database.db
      .selectFrom('api_keys')
      .select('secret_hash')
      .where('id', '=', rolled.id)
      .executeTakeFirstOrThrow();
    await sql`delete from api_keys where id = ${rolled.id}`.execute(database.db);
    await sql`update api_keys set previous_prefix = ${rolled.prefix}, previous_secret_hash = ${secret_hash},
      previous_expires_at = now() + interval '1 hour' where id = ${fresh.id}`.execute(database.db);
    next();
    expect(await live.mayBeLive(rolled.key)).toBe(true);
    expect(await live.mayBeLive(fresh.key)).toBe(true);
    await sql`update api_keys set previous_expires_at = now() - interval '1 second' where id = ${fresh.id}`.execute(database.db);
    next();
    live.forget(rolled.key);
    expect(await live.mayBeLive(rolled.key)).toBe(false);

    // Forgotten (a lookup found it unusable), a key is no live key until it is read again.
    live.forget(fresh.key);
    expect(await live.mayBeLive(fresh.key)).toBe(false);
    next();
    expect(await live.mayBeLive(fresh.key)).toBe(true);
    await sql`update api_keys set revoked_at = now() where id = ${fresh.id}`.execute(database.db);
    live.forget(fresh.key);
    next();
    expect(await live.mayBeLive(fresh.key)).toBe(false);
  });
  it('after a whole read, reads only the keys made or rolled since, and reads the whole again once per fullReadMs', async () => {
    let now = 3_000_000;
    const live = createLiveKeys(database.db, { reloadMs: 1000, fullReadMs: 60_000, now: () => now });
    const kept = await insertApiKey(database.db, org);
    expect(await live.mayBeLive(kept.key)).toBe(true);
    // Made now: the next read takes it. Made (as the clock says) an hour ago: only a whole read does.
    const fresh = await insertApiKey(database.db, org);
    const backdated = await insertApiKey(database.db, org);
    await sql`update api_keys set created_at = now() - interval '1 hour' where id = ${backdated.id}`.execute(database.db);
    now += 1000;
    expect(await live.mayBeLive(fresh.key)).toBe(true);
    now += 1000;
    expect(await live.mayBeLive(backdated.key)).toBe(false);
    // Revoked without a lookup to forget it: still held until the whole read.
    await sql`update api_keys set revoked_at = now() where id = ${kept.id}`.execute(database.db);
    now += 1000;
    expect(await live.mayBeLive(kept.key)).toBe(true);
    now += 60_000;
    expect(await live.mayBeLive(backdated.key)).toBe(true);
    expect(await live.mayBeLive(kept.key)).toBe(false);
  });
});
