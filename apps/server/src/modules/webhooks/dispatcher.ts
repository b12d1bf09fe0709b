import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { MESSAGES, WEBHOOKS } from '@console/domain';
import type { DB } from '../../db/schema.ts';
import { activeAdmins } from '../../lib/admins.ts';
import type { Mailer } from '../../lib/mail.ts';
import type { Sender, AttemptResult } from './send.ts';
import { signatureHeader, type SecretSealer } from './signing.ts';

const w = MESSAGES.webhooks;

export interface DispatcherOptions {
  db: Kysely<DB>;
  logger: FastifyBaseLogger;
  mailer: Mailer;
  sender: Sender;
  sealer: SecretSealer;
  /** How often due deliveries are looked for when none were found (default 1 s). */
  pollMs?: number;
  /** Deliveries leased in one look (default 100). */
  batchSize?: number;
  /** Attempts under way at once in this process (default 32). */
  concurrency?: number;
  /** Waits before each retry in seconds (default WEBHOOKS.retryScheduleSeconds); tests shorten them. */
  retrySchedule?: readonly number[];
  /** An endpoint failing this long without a success is disabled (default WEBHOOKS.disableAfterFailingHours). */
  disableAfterMs?: number;
  /** How long a process holds a delivery it is attempting before another may take it (default twice the timeout and 5 s). */
  leaseMs?: number;
}

interface Due {
  id: string;
  attempts: number;
  event_id: string;
  type: string;
  created_at: string;
  data: unknown;
  org_id: string;
  org_name: string;
  org_type: string;
  path: { id: string; name: string }[];
  url: string;
  endpoint_id: string;
  secret_encrypted: string;
  previous_secret_encrypted: string | null;
  sendable: boolean;
}

interface Outcome {
  id: string;
  ok: boolean;
  status: number | null;
  ms: number | null;
  error: string | null;
  body: string | null;
  next_at: string | null;
  gone: boolean;
}

const CLOSE_WAIT_MS = 5_000;
const CLEAN_EVERY_MS = 3_600_000;

/** The wait before retry number `attempt` (1 for the first retry), jittered by up to a fifth either way; null when none is left. */
export function retryDelayMs(schedule: readonly number[], attempt: number, random = Math.random): number | null {
  const seconds = schedule[attempt - 1];
  if (seconds === undefined) return null;
  return Math.round(seconds * 1000 * (0.8 + 0.4 * random()));
}

/**
 * The webhook sender, one in every server process. It leases due deliveries (`for update skip
 * locked`, then `lease_until`), so two processes never attempt one delivery at once, and sends
 * outside any transaction: a process killed mid-attempt leaves the lease to expire and the
 * delivery is attempted again (at least once; at most the ones in flight are sent twice).
 * Each attempt is recorded; a 2xx delivers, anything else schedules the next retry with
 * back-off and jitter until the schedule (about three days) is spent. An endpoint that fails
 * without a success for `disableAfterMs`, or answers 410 Gone, is disabled, its waiting
 * deliveries failed and its admins mailed. Order is not promised: retries and several
 * processes overtake one another.
 */
export function createWebhookDispatcher(options: DispatcherOptions) {
  const { db, logger, mailer, sender, sealer } = options;
  const pollMs = options.pollMs ?? 1_000;
  const batchSize = options.batchSize ?? 100;
  const concurrency = options.concurrency ?? 32;
  const schedule = options.retrySchedule ?? WEBHOOKS.retryScheduleSeconds;
  const disableAfterMs = options.disableAfterMs ?? WEBHOOKS.disableAfterFailingHours * 3_600_000;
  const leaseMs = options.leaseMs ?? WEBHOOKS.timeoutMs * 2 + 5_000;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  let closed = false;
  let lastClean = 0;

  async function lease(): Promise<Due[]> {
    const { rows } = await sql<Due>`
      with due as (
        select d.id from webhook_deliveries d
        where d.state = 'pending' and d.next_attempt_at <= now() and (d.lease_until is null or d.lease_until < now())
        order by d.next_attempt_at
        limit ${batchSize}
        for update skip locked
      ), leased as (
        update webhook_deliveries d set lease_until = now() + ${`${leaseMs} milliseconds`}::interval
        from due where d.id = due.id
        returning d.id, d.attempts, d.event_id, d.endpoint_id
      )
      select l.id, l.attempts, e.id as event_id, e.type, e.created_at, e.data,
             o.id as org_id, o.name as org_name, o.org_type, rp.path,
             ep.url, ep.id as endpoint_id, ep.secret_encrypted,
             case when ep.previous_secret_expires_at > now() then ep.previous_secret_encrypted end as previous_secret_encrypted,
             (ep.enabled and r.deleted_at is null) as sendable
      from leased l
      join webhook_events e on e.id = l.event_id
      join webhook_endpoints ep on ep.id = l.endpoint_id
      join organizations r on r.id = ep.organization_id
      join organizations o on o.id = e.organization_id
      cross join lateral (select string_to_array(trim(both '/' from o.path), '/')::uuid[] as ids) p
      cross join lateral (
        select coalesce(jsonb_agg(jsonb_build_object('id', a.id, 'name', a.name) order by x.n), '[]'::jsonb) as path
        from unnest(p.ids) with ordinality x(id, n) join organizations a on a.id = x.id
        where x.n >= coalesce(array_position(p.ids, ep.organization_id), cardinality(p.ids))
      ) rp`.execute(db);
    return rows;
  }

  async function attempt(due: Due, open: (sealed: string) => string | null): Promise<Outcome> {
    const fail = (result: AttemptResult, final = false): Outcome => {
      const delay = final ? null : retryDelayMs(schedule, due.attempts + 1);
      return {
        id: due.id,
        ok: false,
        status: result.status,
        ms: result.ms,
        error: result.error,
        body: result.body,
        next_at: delay === null ? null : new Date(Date.now() + delay).toISOString(),
        gone: result.status === 410,
      };
    };
    if (!due.sendable)
      return fail({ status: null, ms: 0, body: null, error: 'The endpoint is disabled or its organization deleted.' }, true);
    const secrets = [due.secret_encrypted, due.previous_secret_encrypted].flatMap((sealed) => (sealed ? [open(sealed)] : []));
    if (secrets.length === 0 || secrets.some((s) => s === null))
      return fail(
        { status: null, ms: 0, body: null, error: "The endpoint's secret cannot be read (the server's secret changed): rotate it." },
        true,
      );
    const body = JSON.stringify({
      id: due.event_id,
      type: due.type,
      timestamp: new Date(due.created_at).toISOString(),
      organization: { id: due.org_id, name: due.org_name, org_type: due.org_type, path: due.path },
      data: due.data,
    });
    const timestamp = Math.floor(Date.now() / 1000);
    const result = await sender.post(
      due.url,
      {
        'webhook-id': due.event_id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(secrets as string[], due.event_id, timestamp, body),
      },
      body,
    );
    if (result.status !== null && result.status >= 200 && result.status < 300)
      return { id: due.id, ok: true, status: result.status, ms: result.ms, error: null, body: result.body, next_at: null, gone: false };
    // 410 Gone: the receiver asks for no more; the endpoint is disabled below.
    return fail(result, result.status === 410);
  }

  async function record(outcomes: Outcome[]) {
    const rows = JSON.stringify(outcomes.map((o) => ({ ...o, body: o.body?.replaceAll('\u0000', '') ?? null })));
    await sql`
      with r as (
        select * from jsonb_to_recordset(${rows}::jsonb)
          as r(id uuid, ok boolean, status integer, ms integer, error text, body text, next_at timestamptz, gone boolean)
      ), attempts as (
        insert into webhook_attempts (delivery_id, status_code, response_ms, error, response_body)
        select r.id, r.status, r.ms, r.error, r.body from r
      ), changed as (
        update webhook_deliveries d set
          attempts = d.attempts + 1,
          lease_until = null,
          state = case when r.ok then 'delivered' when r.next_at is null then 'failed' else 'pending' end,
          delivered_at = case when r.ok then now() end,
          next_attempt_at = case when r.ok then null else r.next_at end
        from r where d.id = r.id
        returning d.endpoint_id, r.ok
      )
      update webhook_endpoints ep set
        last_success_at = case when c.any_ok then now() else ep.last_success_at end,
        failing_since = case when c.any_ok then null else coalesce(ep.failing_since, now()) end
      from (select endpoint_id, bool_or(ok) as any_ok, bool_and(not ok) as all_failed from changed group by endpoint_id) c
      where ep.id = c.endpoint_id`.execute(db);
  }

  /**
   * Disables the endpoints that answered 410 or failed for too long, fails what they wait to
   * deliver, and mails their admins; answers the endpoints it disabled.
   */
  async function disableFailing(goneDeliveries: string[]): Promise<Set<string>> {
    const disabled = new Set<string>();
    const candidates = await sql<{ id: string; reason: 'failing' | 'gone' }>`
      select ep.id, case when exists (select 1 from webhook_deliveries d where d.endpoint_id = ep.id and d.id = any(${goneDeliveries}::uuid[])) then 'gone' else 'failing' end as reason
      from webhook_endpoints ep
      where ep.enabled and (ep.failing_since < now() - ${`${disableAfterMs} milliseconds`}::interval
        or ep.id in (select d.endpoint_id from webhook_deliveries d where d.id = any(${goneDeliveries}::uuid[])))`.execute(db);
    for (const candidate of candidates.rows) {
      await db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ url: string; organization_id: string; name: string }>`
          update webhook_endpoints ep set enabled = false, disabled_reason = ${candidate.reason}, disabled_at = now()
          from organizations o
          where ep.id = ${candidate.id} and ep.enabled and o.id = ep.organization_id
          returning ep.url, ep.organization_id, o.name`.execute(trx);
        const endpoint = rows[0];
        if (!endpoint) return;
        disabled.add(candidate.id);
        await sql`update webhook_deliveries set state = 'failed', next_attempt_at = null, lease_until = null
          where endpoint_id = ${candidate.id} and state = 'pending'`.execute(trx);
        const text =
          candidate.reason === 'gone'
            ? w.disabledGone(endpoint.name, endpoint.url)
            : w.disabledFailing(endpoint.name, endpoint.url, Math.round(disableAfterMs / 3_600_000));
        for (const admin of await activeAdmins(trx, [endpoint.organization_id]))
          await mailer.send({ to: admin.email, subject: w.disabledSubject(endpoint.url), text }, trx);
        logger.warn({ endpoint: candidate.id, reason: candidate.reason }, 'webhook endpoint disabled');
      });
    }
    return disabled;
  }

  /** Deletes the events past retention that wait for nothing (their deliveries and attempts go with them). */
  async function clean() {
    if (Date.now() - lastClean < CLEAN_EVERY_MS) return;
    lastClean = Date.now();
    await sql`
      delete from webhook_events e
      where e.id in (
        select e2.id from webhook_events e2
        where e2.created_at < now() - ${`${WEBHOOKS.retentionDays} days`}::interval
          and not exists (select 1 from webhook_deliveries d where d.event_id = e2.id and d.state = 'pending')
        limit 10000
      )`.execute(db);
  }

  /**
   * Sends what is due until none is left, as a pipeline: up to `concurrency` attempts in
   * flight, the next batch leased while the last one's deliveries are still being attempted
   * (once half a batch is left), and each outcome recorded as it comes, with those that came
   * while the previous record was written (one statement for all of them), so neither a lease
   * nor a record leaves the senders idle, and a process killed mid-burst sends again only the
   * attempts in flight and the few whose record was being written. A delivery that
   * waited here past half its lease is not attempted: its lease could run out before its
   * attempt was recorded and another process send it too, so it is left to expire and the
   * delivery is leased again. Resolves once every attempt made is recorded; rejects with the
   * first database error after recording what it can.
   */
  async function drain(): Promise<void> {
    /** Leased and not attempted yet, with when (performance.now()) each was leased. */
    const queue: { due: Due; leasedAt: number }[] = [];
    /** Attempted and not recorded yet. */
    let outcomes: Outcome[] = [];
    let leasing: Promise<void> | null = null;
    let recording: Promise<void> | null = null;
    /** A lease found nothing due: no more are taken in this run. */
    let exhausted = false;
    let failure: unknown = null;
    /** Each endpoint's secrets are opened once a run, not once a delivery (by their sealed text, which a rotation changes). */
    const opened = new Map<string, string | null>();
    const open = (sealed: string) => {
      let secret = opened.get(sealed);
      if (secret === undefined) {
        secret = sealer.open(sealed);
        opened.set(sealed, secret);
      }
      return secret;
    };

    const refill = () => {
      if (leasing || exhausted || closed || failure !== null) return;
      leasing = lease()
        .then(
          (rows) => {
            if (rows.length === 0) exhausted = true;
            const leasedAt = performance.now();
            for (const due of rows) queue.push({ due, leasedAt });
          },
          (error: unknown) => {
            failure ??= error;
          },
        )
        .finally(() => {
          leasing = null;
        });
    };

    /**
     * Records what has come, unless a record is being written (what comes meanwhile waits for
     * it). Called once the current turn of the event loop has handled every answer that had
     * arrived, so those that came together are recorded together: on PGlite, whose statements
     * run on this thread, a record started at the first answer would leave the others of the
     * turn to one statement each.
     */
    let flushSoon: NodeJS.Immediate | null = null;
    const scheduleFlush = () => {
      flushSoon ??= setImmediate(() => {
        flushSoon = null;
        flush();
      });
    };
    const flush = () => {
      if (recording || outcomes.length === 0) return;
      const group = outcomes;
      outcomes = [];
      recording = (async () => {
        await record(group);
        if (group.some((o) => !o.ok)) {
          const disabled = await disableFailing(group.filter((o) => o.gone).map((o) => o.id));
          // What a disabled endpoint still had leased here was failed with the rest of its deliveries.
          if (disabled.size) queue.splice(0, queue.length, ...queue.filter((item) => !disabled.has(item.due.endpoint_id)));
        }
      })()
        .catch((error: unknown) => {
          failure ??= error;
        })
        .finally(() => {
          recording = null;
          scheduleFlush();
        });
    };

    const sender = async () => {
      for (;;) {
        // The next batch is leased while half of this one is still to attempt, so the senders do not wait for it.
        if (queue.length <= batchSize / 2) refill();
        const item = queue.shift();
        if (!item) {
          if (!leasing) return;
          await leasing;
          continue;
        }
        if (performance.now() - item.leasedAt > leaseMs / 2) continue;
        // Not `outcomes.push(await ...)`: a flush meanwhile replaces the array, and the push must reach the new one.
        const outcome = await attempt(item.due, open);
        outcomes.push(outcome);
        scheduleFlush();
      }
    };

    await Promise.all(Array.from({ length: concurrency }, sender));
    while (recording || outcomes.length) {
      flush();
      await recording;
    }
    if (flushSoon) clearImmediate(flushSoon);
    if (failure !== null) throw failure;
  }

  async function run() {
    try {
      await clean();
      await drain();
    } catch (error) {
      // The database is away: the deliveries stay pending (their leases expire) for the next look.
      logger.warn(
        { error: error instanceof Error ? error.message.slice(0, 200) : String(error).slice(0, 200) },
        'webhooks could not be sent',
      );
    }
  }

  function schedule_() {
    if (closed) return;
    timer = setTimeout(() => {
      timer = null;
      running = run().finally(() => {
        running = null;
        schedule_();
      });
    }, pollMs);
    timer.unref();
  }

  schedule_();

  return {
    /** Sends what is due now (tests, and an action that just queued a delivery). */
    async runNow() {
      await (running ?? Promise.resolve());
      await run();
    },
    /** Asks for a look soon, as a test event or a redelivery does. */
    wake() {
      if (closed || running || !timer) return;
      clearTimeout(timer);
      timer = null;
      running = run().finally(() => {
        running = null;
        schedule_();
      });
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      if (running) await Promise.race([running, new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref())]);
      sender.close();
    },
  };
}
export type WebhookDispatcher = ReturnType<typeof createWebhookDispatcher>;
