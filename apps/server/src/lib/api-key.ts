import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import type { ApiScope, OrgStatus, OrgType } from '@console/domain';
import type { Executor } from '../db/schema.ts';

/**
 * API keys of agent runtimes: `oc_<prefix>_<secret>`, where the prefix is 8 random hex
 * characters shown in the console to recognise a key (stored as `oc_<prefix>`, unique), and
 * the secret 64 random hex characters (256 bits). Only the SHA-256 of the whole key is
 * stored, so a leaked table gives no usable key; the whole key is shown once, when made.
 *
 * What this file offers:
 * - `parse(bearer)`: `{ prefix, key }` when the text has the form of a key, else null (no
 *   database is read for a malformed one).
 * - `hashKey(key)`: the SHA-256 (hex) that is stored for a key.
 * - `generateKey()`: a new key with its prefix and hash (the API key service makes keys with it).
 * - `verifyKey(db, bearer)`: the key (id, name, prefix, scopes) with its organization (id,
 *   name, type, path, status, whether it is deleted, and the status of the nearest
 *   suspended or inactive organization above it), or null when the text is no key, no key
 *   has its prefix, the hash differs (compared in constant time) or the key is revoked. A
 *   key that verifies counts as used (use_count, last_used_at). Whether the organization's
 *   standing allows the request is the caller's decision.
 */

export const KEY_PREFIX = 'oc_';
const KEY_FORMAT = /^oc_([0-9a-f]{8})_([0-9A-Za-z]{32,128})$/;

export interface ParsedKey {
  /** The stored, visible prefix: `oc_1a2b3c4d`. */
  prefix: string;
  /** The whole key, as given. */
  key: string;
}

export function parse(bearer: string | null | undefined): ParsedKey | null {
  if (typeof bearer !== 'string') return null;
  const match = KEY_FORMAT.exec(bearer);
  return match ? { prefix: `${KEY_PREFIX}${match[1]}`, key: bearer } : null;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export interface GeneratedKey {
  /** The whole key: shown once, never stored. */
  key: string;
  prefix: string;
  hash: string;
}

export function generateKey(): GeneratedKey {
  const prefix = `${KEY_PREFIX}${randomBytes(4).toString('hex')}`;
  const key = `${prefix}_${randomBytes(32).toString('hex')}`;
  return { key, prefix, hash: hashKey(key) };
}

export interface VerifiedKey {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiScope[];
  organization: {
    id: string;
    name: string;
    org_type: OrgType;
    path: string;
    status: OrgStatus;
    deleted: boolean;
    /** The nearest organization above that is not active, if any: its subtree (this one too) is frozen. */
    ancestor_status: OrgStatus | null;
  };
}

/** Equal hex digests of equal length, compared in constant time. */
function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/**
 * `countUse: false` leaves the counting to the caller: the machine routes add uses up in
 * memory and write them at most once a second (lib/key-use.ts), so a busy key's row is no
 * hot spot.
 */
export async function verifyKey(
  db: Executor,
  bearer: string | null | undefined,
  options: { countUse?: boolean } = {},
): Promise<VerifiedKey | null> {
  const parsed = parse(bearer);
  if (!parsed) return null;
  const hash = hashKey(parsed.key);
  const row = await db
    .selectFrom('api_keys as k')
    .innerJoin('organizations as o', 'o.id', 'k.organization_id')
    .select([
      'k.id',
      'k.name',
      'k.prefix',
      'k.scopes',
      'k.secret_hash',
      'k.revoked_at',
      'o.id as org_id',
      'o.name as org_name',
      'o.org_type',
      'o.path',
      'o.status as org_status',
      'o.deleted_at as org_deleted_at',
      // As the caller's query reads it: the ancestors through the materialized path.
      sql<OrgStatus | null>`(select a.status from organizations a
        where a.id = any(organization_ancestors(o.path)) and a.status <> 'active'
        order by length(a.path) desc limit 1)`.as('ancestor_status'),
    ])
    .where('k.prefix', '=', parsed.prefix)
    .executeTakeFirst();
  if (!row || !sameHash(hash, row.secret_hash) || row.revoked_at) return null;
  if (options.countUse ?? true) {
    await db.updateTable('api_keys').set({ use_count: sql`use_count + 1`, last_used_at: sql`now()` }).where('id', '=', row.id).execute();
  }
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    organization: {
      id: row.org_id,
      name: row.org_name,
      org_type: row.org_type,
      path: row.path,
      status: row.org_status,
      deleted: row.org_deleted_at !== null,
      ancestor_status: row.ancestor_status,
    },
  };
}
