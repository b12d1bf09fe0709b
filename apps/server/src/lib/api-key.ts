import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql, type CompiledQuery, type Kysely } from 'kysely';
import {
  API_KEY_LIFECYCLE,
  AUDITED_API_KEY_REFUSALS,
  type ApiKeyRefusal,
  type AuditedApiKeyRefusal,
  type ApiScope,
  type OrgStatus,
  type OrgType,
} from '@console/domain';
import { compileOnce } from '../db/compile-once.ts';
import type { DB, Executor } from '../db/schema.ts';
import { writeAudit } from './audit.ts';

/**
 * API keys of agent runtimes: `oc_<prefix>_<secret>`, where the prefix is 8 random hex
 * characters shown in the console to recognise a key (stored as `oc_<prefix>`, unique among
 * every key's current and previous prefixes), and
 * the secret 64 random hex characters (256 bits). Only the SHA-256 of the whole key is
 * stored, so a leaked table gives no usable key; the whole key is shown once, when made.
 *
 * What this file offers:
 * - `parse(bearer)`: `{ prefix, key }` when the text has the form of a key, else null (no
 *   database is read for a malformed one).
 * - `hashKey(key)`: the SHA-256 (hex) that is stored for a key.
 * - `generateKey()`: a new key with its prefix and hash (the API key service makes keys with it).
 * - `verifyKey(db, bearer)`: the key (id, name, prefix, scopes, rate limit) with its
 *   organization (id, name, type, path, status, whether it is deleted, and the status of the
 *   nearest suspended or inactive organization above it), or a refusal saying why not (see
 *   `KeyRefusal`). A key is found by its prefix or by the prefix of its previous secret (the
 *   one a roll replaced), and the text must hash to that secret's hash (compared in constant
 *   time). A key that verifies counts as used (use_count, last_used_at). Whether the
 *   organization's standing allows the request is the caller's decision.
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
  /** The key's current prefix, also when the request came with its previous secret. */
  prefix: string;
  scopes: ApiScope[];
  /** The key's own requests-per-minute limit, at most the house's ceiling; null: the default. */
  rate_limit_per_minute: number | null;
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
 * Why a key was refused. `unknown`: the text has no key's form, no key has its prefix, or the
 * hash differs; nothing is said about any key (`key` null). The others only once the secret
 * matched: `revoked` (both secrets), `expired` (expires_at has come: both secrets), `rolled`
 * (the previous secret after its grace period). `audited` says whether this key's refusal
 * for this reason was written to the audit log within the last hour.
 */
export interface KeyRefusal {
  refused: 'unknown' | ApiKeyRefusal;
  key: { id: string; organization_id: string; name: string; prefix: string; audited: boolean } | null;
}

export const isKeyRefusal = (verdict: VerifiedKey | KeyRefusal): verdict is KeyRefusal => 'refused' in verdict;

const UNKNOWN: KeyRefusal = { refused: 'unknown', key: null };
const API_KEY_REFUSAL_AUDIT_HOURS = API_KEY_LIFECYCLE.refusalAuditHours;

/**
 * The rows a prefix names: two at most, the key whose current prefix this is, and the one
 * whose previous it is (new prefixes are drawn unlike both, so in practice one).
 */
const keyRows = (db: Executor, prefix: string) =>
  db
    .selectFrom('api_keys as k')
    .innerJoin('organizations as o', 'o.id', 'k.organization_id')
    .select([
      'k.id',
      'k.name',
      'k.prefix',
      'k.scopes',
      'k.secret_hash',
      'k.previous_prefix',
      'k.previous_secret_hash',
      'k.revoked_at',
      // Held to the house's ceiling as it stands now: lowering it lowers every key above it (least() skips a null, so none stays null).
      sql<number | null>`case when k.rate_limit_per_minute is not null
          then least(k.rate_limit_per_minute, (select g.api_key_rate_limit_ceiling from global_settings g)) end`.as(
        'rate_limit_per_minute',
      ),
      'k.refusal_audited_reason',
      sql<boolean>`coalesce(k.expires_at <= now(), false)`.as('expired'),
      sql<boolean>`coalesce(k.previous_expires_at <= now(), true)`.as('previous_ended'),
      sql<boolean>`coalesce(k.refusal_audited_at > now() - make_interval(hours => ${API_KEY_REFUSAL_AUDIT_HOURS}), false)`.as(
        'refusal_audited_recently',
      ),
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
    .where((eb) => eb.or([eb('k.prefix', '=', prefix), eb('k.previous_prefix', '=', prefix)]));

/** Every machine request runs the lookup: compiled once per database handle, a prepared statement on PostgreSQL. */
const keyLookups = new WeakMap<Executor, (values: { prefix: string }) => CompiledQuery<KeyRow>>();
type KeyRow = Awaited<ReturnType<ReturnType<typeof keyRows>['execute']>>[number];
function keyLookup(db: Executor) {
  let bind = keyLookups.get(db);
  if (!bind) {
    bind = compileOnce((v: { prefix: string }) => keyRows(db, v.prefix));
    keyLookups.set(db, bind);
  }
  return bind;
}

/**
 * `countUse: false` leaves the counting to the caller: the machine routes add uses up in
 * memory and write them at most once a second (lib/key-use.ts), so a busy key's row is no
 * hot spot. Whether a key has expired or its previous secret ended is read on the
 * database's clock.
 */
export async function verifyKey(
  db: Executor,
  bearer: string | null | undefined,
  options: { countUse?: boolean } = {},
): Promise<VerifiedKey | KeyRefusal> {
  const parsed = parse(bearer);
  if (!parsed) return UNKNOWN;
  const hash = hashKey(parsed.key);
  // Each row is matched by its own hash.
  const { rows } = await db.executeQuery(keyLookup(db)({ prefix: parsed.prefix }));
  let row: KeyRow | undefined;
  let previous = false;
  for (const candidate of rows) {
    if (candidate.prefix === parsed.prefix && sameHash(hash, candidate.secret_hash)) row = candidate;
    else if (
      candidate.previous_prefix === parsed.prefix &&
      candidate.previous_secret_hash &&
      sameHash(hash, candidate.previous_secret_hash)
    ) {
      row = candidate;
      previous = true;
    }
  }
  if (!row) return UNKNOWN;
  const refused: ApiKeyRefusal | null = row.revoked_at
    ? 'revoked'
    : row.expired
      ? 'expired'
      : previous && row.previous_ended
        ? 'rolled'
        : null;
  if (refused) {
    const audited = row.refusal_audited_recently && row.refusal_audited_reason === refused;
    return { refused, key: { id: row.id, organization_id: row.org_id, name: row.name, prefix: row.prefix, audited } };
  }
  if (options.countUse ?? true) {
    await db.updateTable('api_keys').set({ use_count: sql`use_count + 1`, last_used_at: sql`now()` }).where('id', '=', row.id).execute();
  }
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    rate_limit_per_minute: row.rate_limit_per_minute,
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

/**
 * Writes an expired or rolled-out key's refusal to the audit log (`api_key.refused`, with the
 * reason), at most once per key and reason per `API_KEY_LIFECYCLE.refusalAuditHours`: a refused
 * key sent again and again writes no row per request. The key's row records the last audited
 * refusal; the conditional update lets one request of many concurrent ones win, and writes
 * nothing when it is recent. Unknown keys are not audited (they name no key, and anyone may
 * send them), nor revoked ones (their revocation is audited).
 */
export async function auditKeyRefusal(db: Kysely<DB>, refusal: KeyRefusal, info: { ip: string; requestId: string }): Promise<void> {
  const key = refusal.key;
  const reason = refusal.refused as AuditedApiKeyRefusal;
  if (!key || key.audited || !AUDITED_API_KEY_REFUSALS.includes(reason)) return;
  await db.transaction().execute(async (trx) => {
    const won = await trx
      .updateTable('api_keys')
      .set({ refusal_audited_at: sql`now()`, refusal_audited_reason: reason })
      .where('id', '=', key.id)
      .where((eb) =>
        eb.or([
          eb('refusal_audited_at', 'is', null),
          eb('refusal_audited_reason', 'is distinct from', reason),
          eb('refusal_audited_at', '<=', sql<string>`now() - make_interval(hours => ${API_KEY_REFUSAL_AUDIT_HOURS})`),
        ]),
      )
      .returning('id')
      .executeTakeFirst();
    if (!won) return;
    await writeAudit(trx, {
      actorUserId: null,
      organizationId: key.organization_id,
      action: 'api_key.refused',
      targetType: 'api_key',
      targetId: key.id,
      details: { key_name: key.name, prefix: key.prefix, reason },
      ip: info.ip,
      requestId: info.requestId,
    });
  });
}
