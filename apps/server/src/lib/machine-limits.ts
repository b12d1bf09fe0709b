import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import { MACHINE_RATE_LIMITS, MESSAGES, ORG_TYPES, type OrgType } from '@console/domain';
import type { DB } from '../db/schema.ts';
import { RateLimitedError } from './errors.ts';

/** Requests a minute on the machine API; `MACHINE_RATE_LIMITS` in production. */
export interface MachineLimitSettings {
  keyPerMinute: number;
  subtreePerMinute: Record<Exclude<OrgType, 'house'>, number>;
  refusedPerAddressPerMinute: number;
  /** How stale the live keys an address past its refused allowance is judged by may be. */
  liveKeysReloadSeconds: number;
  windowSeconds: number;
}

/** The production limits, each multiplied by `factor` (RATE_LIMIT_FACTOR). */
export function machineLimitSettings(factor = 1): MachineLimitSettings {
  const { keyPerMinute, subtreePerMinute, refusedPerAddressPerMinute, liveKeysReloadSeconds, windowSeconds } = MACHINE_RATE_LIMITS;
  const scale = (n: number) => Math.round(n * factor);
  return {
    keyPerMinute: scale(keyPerMinute),
    subtreePerMinute: {
      super_agency: scale(subtreePerMinute.super_agency),
      agency: scale(subtreePerMinute.agency),
      tenant: scale(subtreePerMinute.tenant),
    },
    refusedPerAddressPerMinute: scale(refusedPerAddressPerMinute),
    liveKeysReloadSeconds,
    windowSeconds,
  };
}

/** One allowance: its counter's name, the policy name announced in the headers, its limit. */
export interface Bucket {
  name: string;
  policy: string;
  limit: number;
}

/** A request's hold on one count of a bucket while its outcome is not known; settled once. */
export interface Slot {
  /** The count is spent (a refusal). */
  keep(): void;
  /** The count is given back. */
  release(): void;
}

export interface Verdict {
  allowed: boolean;
  /** Seconds until the window ends: Retry-After when refused, and the `t` of each policy. */
  resetSeconds: number;
  remaining: number[];
}

/**
 * Counts requests in fixed windows, shared by every server process through the `rate_limits`
 * table without a statement per request: each process decides from the shared total it last
 * read plus its own requests since, and adds its requests to the table every `syncMs` (one
 * statement for every counter touched meanwhile, rows in key order, which also reads back
 * every other process's counts). A process therefore never passes a limit on its own, and
 * P processes together pass it by at most what the other P - 1 admit within one sync
 * interval (and never by more than P times the limit). The rows carry their window in
 * their key and are swept, a hundred at a time, once their window is over.
 */
export interface SharedCounter {
  /** Counts one request against every bucket, or against none when one is at its limit. */
  take(buckets: Bucket[]): Verdict;
  /**
   * Seconds to wait when the bucket is at its limit, else null; counts nothing. Reads only a
   * bucket this process has added to in the window (then kept in step with the others' counts).
   */
  wait(bucket: Bucket): number | null;
  /** Counts one against the bucket whatever its state (refusals). */
  add(bucket: Bucket): void;
  /**
   * Holds one count of the bucket for a request whose outcome is not known yet (a key being
   * looked up), or null when the counts and the slots already held reach its limit: concurrent
   * requests cannot pass it together. Slots live in this process only, so P processes hold at
   * most P times the limit between them, as with counting.
   */
  reserve(bucket: Bucket): Slot | null;
  /** Adds what is pending to the shared table now (tests, shutdown). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export function createSharedCounter(
  db: Kysely<DB>,
  log: FastifyBaseLogger,
  options: { windowSeconds: number; syncMs?: number; now?: () => number },
): SharedCounter {
  const windowMs = options.windowSeconds * 1000;
  const syncMs = options.syncMs ?? 200;
  const now = options.now ?? Date.now;
  let window = -1;
  let counts = new Map<string, { shared: number; pending: number }>();
  let touched = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();
  /** Slots held per bucket: requests under way, whatever the window. */
  const held = new Map<string, number>();

  /** The counter of `name` in the current window, made when `create`; a counter read is shared at the next sync. */
  function entry(name: string, create: true): { shared: number; pending: number };
  function entry(name: string, create: false): { shared: number; pending: number } | undefined;
  function entry(name: string, create: boolean) {
    const current = Math.floor(now() / windowMs);
    if (current !== window) {
      window = current;
      counts = new Map();
      touched = new Set();
    }
    let found = counts.get(name);
    if (!found && create) {
      found = { shared: 0, pending: 0 };
      counts.set(name, found);
    }
    if (!found) return undefined;
    touched.add(name);
    if (!timer) {
      timer = setTimeout(() => void flush(), syncMs);
      timer.unref();
    }
    return found;
  }
  const used = (e: { shared: number; pending: number }) => e.shared + e.pending;
  const resetSeconds = () => Math.max(1, Math.ceil(((window + 1) * windowMs - now()) / 1000));

  async function sync(): Promise<void> {
    const of = window;
    const names = [...touched];
    touched = new Set();
    if (names.length === 0) return;
    const rows = names.sort().map((name) => ({ name, key: `machine:${of}:${name}`, n: counts.get(name)?.pending ?? 0 }));
    try {
      const result = await sql<{ key: string; count: number }>`
        with swept as (
          delete from rate_limits where key in (
            select key from rate_limits where reset_at < now() order by reset_at limit 100 for update skip locked
          )
        )
        insert into rate_limits (key, count, reset_at)
        select x.key, x.n, to_timestamp(${((of + 1) * windowMs) / 1000})
        from jsonb_to_recordset(${JSON.stringify(rows.map(({ key, n }) => ({ key, n })))}::jsonb) as x(key text, n integer)
        order by x.key
        on conflict (key) do update set count = rate_limits.count + excluded.count
        returning key, count`.execute(db);
      if (window !== of) return;
      const totals = new Map(result.rows.map((row) => [row.key, Number(row.count)]));
      for (const { name, key, n } of rows) {
        const e = counts.get(name);
        if (!e) continue;
        e.pending -= n;
        e.shared = totals.get(key) ?? e.shared + n;
      }
    } catch (error) {
      // Kept in memory and sent with the next sync; meanwhile each process still counts its own.
      for (const { name } of rows) touched.add(name);
      log.warn({ err: error, counters: rows.length }, 'machine rate-limit counts were not shared');
    }
  }

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    writing = writing.then(sync);
    return writing;
  }

  return {
    take(buckets) {
      const entries = buckets.map((bucket) => entry(bucket.name, true));
      const allowed = entries.every((e, i) => used(e) < buckets[i]!.limit);
      if (allowed) for (const e of entries) e.pending++;
      return { allowed, resetSeconds: resetSeconds(), remaining: entries.map((e, i) => Math.max(0, buckets[i]!.limit - used(e))) };
    },
    wait(bucket) {
      // Only a counter this process has counted into is read: an address it never refused writes no row.
      const found = entry(bucket.name, false);
      return found && used(found) >= bucket.limit ? resetSeconds() : null;
    },
    add(bucket) {
      entry(bucket.name, true).pending++;
    },
    reserve(bucket) {
      // Like wait(), an address this process never refused writes no row.
      const found = entry(bucket.name, false);
      const holding = held.get(bucket.name) ?? 0;
      if ((found ? used(found) : 0) + holding >= bucket.limit) return null;
      held.set(bucket.name, holding + 1);
      let settled = false;
      const settle = () => {
        if (settled) return false;
        settled = true;
        const left = (held.get(bucket.name) ?? 1) - 1;
        if (left > 0) held.set(bucket.name, left);
        else held.delete(bucket.name);
        return true;
      };
      return {
        keep: () => {
          if (settle()) entry(bucket.name, true).pending++;
        },
        release: () => void settle(),
      };
    },
    flush,
    close: flush,
  };
}

/** What the limiter needs of a verified key. */
export interface LimitedKey {
  id: string;
  /** The key's own requests-a-minute, set by its organization's admins; null for the default. */
  rate_limit_per_minute?: number | null;
  organization: { path: string };
}

const m = MESSAGES.usage;

/** `RateLimit-Policy` and `RateLimit` as the IETF draft writes them: `"name";q=..;w=..` and `"name";r=..;t=..`. */
function announce(reply: FastifyReply, buckets: Bucket[], verdict: Verdict, windowSeconds: number): void {
  reply.header('ratelimit-policy', buckets.map((b) => `"${b.policy}";q=${b.limit};w=${windowSeconds}`).join(', '));
  reply.header('ratelimit', buckets.map((b, i) => `"${b.policy}";r=${verdict.remaining[i]};t=${verdict.resetSeconds}`).join(', '));
}

/**
 * The machine API's limits: per client address for refused keys, per key, and per subtree of
 * each organization from the key's own up to the house's children (the house itself has
 * none). A request over a limit is answered 429 with Retry-After and counts nothing; every
 * admitted answer carries the policies and what is left of each.
 *
 * The address's allowance counts only keys that do not verify: a slot is held before a key
 * is looked up (so a burst of bad keys is looked up no more than the allowance), kept when
 * the key is refused and given back when it verifies. Past the allowance, the caller looks a
 * key up only when it can be real (live-keys.ts): a valid key is held only by its own limits.
 */
export function createMachineLimiter(counter: SharedCounter, settings: MachineLimitSettings) {
  const address = (ip: string): Bucket => ({ name: `address:${ip}`, policy: 'address', limit: settings.refusedPerAddressPerMinute });

  function bucketsOf(key: LimitedKey): Bucket[] {
    const ids = key.organization.path.split('/').filter(Boolean);
    const subtrees = ids.flatMap((id, depth): Bucket[] => {
      const type = ORG_TYPES[depth];
      return type && type !== 'house' ? [{ name: `subtree:${id}`, policy: type, limit: settings.subtreePerMinute[type] }] : [];
    });
    return [{ name: `key:${key.id}`, policy: 'key', limit: key.rate_limit_per_minute ?? settings.keyPerMinute }, ...subtrees];
  }

  return {
    /** Before a key is looked up: a slot in its sender's refused-key allowance, or null when that is used up. */
    reserve(ip: string): Slot | null {
      return counter.reserve(address(ip));
    },
    /** The 429 of an address past its refused-key allowance (a second when only requests under way fill it). */
    refuseAddress(ip: string, reply: FastifyReply): RateLimitedError {
      const wait = counter.wait(address(ip)) ?? 1;
      reply.header('retry-after', String(wait));
      return new RateLimitedError(wait, m.tooManyRefusedKeys(wait));
    },
    /** A key refused (unknown, malformed, revoked, expired) without a slot counts against its sender's address. */
    refused(ip: string): void {
      counter.add(address(ip));
    },
    /** Counts the request against its key and subtrees, or refuses it with 429 and counts nothing. */
    admit(key: LimitedKey, reply: FastifyReply): void {
      const buckets = bucketsOf(key);
      const verdict = counter.take(buckets);
      announce(reply, buckets, verdict, settings.windowSeconds);
      if (verdict.allowed) return;
      const tight = buckets.find((b, i) => verdict.remaining[i] === 0) ?? buckets[0]!;
      reply.header('retry-after', String(verdict.resetSeconds));
      throw new RateLimitedError(verdict.resetSeconds, m.rateLimited(tight.policy, tight.limit, verdict.resetSeconds));
    },
  };
}

export type MachineLimiter = ReturnType<typeof createMachineLimiter>;
