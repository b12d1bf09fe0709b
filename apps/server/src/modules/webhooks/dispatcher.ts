import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { WEBHOOKS } from '@console/domain';
import type { DB } from '../../db/schema.ts';
import type { Mailer } from '../../lib/mail.ts';
import { startPollLoop } from '../../lib/poll-loop.ts';
import { disableFailing } from './disable.ts';
import { leaseDue, prepareQueue, recordOutcomes, type Due, type Outcome } from './queue.ts';
import type { Sender, AttemptResult } from './send.ts';
import type { SecretSealer } from '../../lib/sealer.ts';
import { signatureHeader } from './signing.ts';

export interface DispatcherOptions {
  db: Kysely<DB>;
  logger: FastifyBaseLogger;
  mailer: Mailer;
  sender: Sender;
  sealer: SecretSealer;
  /** How often due deliveries are looked for when none were found (default 1 s). */
  pollMs?: number;
  /** Deliveries leased in one look at most (default 100; never more than the senders free). */
  batchSize?: number;
  /** Attempts under way at once in this process (default 32). */
  concurrency?: number;
  /** Waits before each retry in seconds (default WEBHOOKS.retryScheduleSeconds); tests shorten them. */
  retrySchedule?: readonly number[];
  /** An endpoint failing this long without a success is disabled (default WEBHOOKS.disableAfterFailingHours). */
  disableAfterMs?: number;
  /** How long a process holds a delivery it is attempting before another may take it (default twice the timeout and 5 s). */
  leaseMs?: number;
  /** Attempts in flight at once to one endpoint, and to one organization's endpoints, across every process (default WEBHOOKS.inFlightPerEndpoint and inFlightPerOrganization). */
  perEndpoint?: number;
  perOrganization?: number;
  /** How long an endpoint is paused after each timeout in a row, in seconds (default WEBHOOKS.timeoutPauseSeconds). */
  timeoutPauseSeconds?: readonly number[];
}

const CLEAN_EVERY_MS = 3_600_000;

/** The wait before retry number `attempt` (1 for the first retry), jittered by up to a fifth either way; null when none is left. */
export function retryDelayMs(schedule: readonly number[], attempt: number, random = Math.random): number | null {
  const seconds = schedule[attempt - 1];
  if (seconds === undefined) return null;
  return Math.round(seconds * 1000 * (0.8 + 0.4 * random()));
}

/**
 * The webhook sender, one in every server process. It leases due deliveries (`leaseDue`: a
 * few at a time per endpoint and per organization, across every process, round-robin over
 * the endpoints), so two processes never attempt one delivery at once and no endpoint that
 * never answers holds the senders others need, and sends outside any transaction: a process
 * killed mid-attempt leaves the lease to expire and the delivery is attempted again (at
 * least once; at most the ones in flight are sent twice). Each attempt is recorded; a 2xx
 * delivers, anything else schedules the next retry with back-off and jitter until the
 * schedule (about three days) is spent, and an endpoint whose attempts keep timing out is
 * paused for longer and longer. An endpoint that fails without a success for
 * `disableAfterMs`, or answers 410 Gone, is disabled, its waiting deliveries failed and its
 * admins mailed. Order is not promised: retries and several processes overtake one another.
 */
export function createWebhookDispatcher(options: DispatcherOptions) {
  const { db, logger, mailer, sender, sealer } = options;
  const pollMs = options.pollMs ?? 1_000;
  const batchSize = options.batchSize ?? 100;
  const concurrency = options.concurrency ?? 32;
  const schedule = options.retrySchedule ?? WEBHOOKS.retryScheduleSeconds;
  const disableAfterMs = options.disableAfterMs ?? WEBHOOKS.disableAfterFailingHours * 3_600_000;
  const leaseMs = options.leaseMs ?? WEBHOOKS.timeoutMs * 2 + 5_000;
  const room = {
    batchSize,
    leaseMs,
    perEndpoint: options.perEndpoint ?? WEBHOOKS.inFlightPerEndpoint,
    perOrganization: options.perOrganization ?? WEBHOOKS.inFlightPerOrganization,
  };
  const pauseSeconds = options.timeoutPauseSeconds ?? WEBHOOKS.timeoutPauseSeconds;
  prepareQueue(db, room, pauseSeconds);
  let lastClean = 0;
  /** Asks the run under way, if any, to look for due deliveries now. */
  let nudge: (() => void) | null = null;

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
        timed_out: result.timedOut === true,
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
      return {
        id: due.id,
        ok: true,
        status: result.status,
        ms: result.ms,
        error: null,
        body: result.body,
        next_at: null,
        gone: false,
        timed_out: false,
      };
    // 410 Gone: the receiver asks for no more; the endpoint is disabled below.
    return fail(result, result.status === 410);
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
   * flight, a lease taken for as many as there are senders free, and each outcome recorded as
   * it comes, with those that came while the previous record was written (one statement for
   * all of them), so a record does not leave the senders idle, and a process killed mid-burst
   * sends again only the attempts in flight and the few whose record was being written.
   *
   * A lease short of what it asked for took all there was room for (every endpoint with due
   * deliveries is at its room, some perhaps by this run's own attempts): the run then looks
   * again once an outcome is recorded (which frees room) or after `pollMs` (another
   * organization's new delivery does not wait for a slow attempt here to end), and ends once
   * a lease finds nothing with nothing of its own under way. A delivery that waited here past
   * half its lease (a process too busy to start it) is not attempted: its lease could run out
   * before its attempt was recorded and another process send it too, so it is left to expire
   * and the delivery is leased again. Resolves once every attempt made is recorded; rejects
   * with the first database error after recording what it can (no new attempt starts after it).
   */
  async function drain(closed: () => boolean): Promise<void> {
    /** Leased and not attempted yet (for a moment: a lease takes no more than the senders free), with when (performance.now()) each was leased. */
    const queue: { due: Due; leasedAt: number }[] = [];
    /** Attempted and not recorded yet. */
    let outcomes: Outcome[] = [];
    /** Attempts under way. */
    let active = 0;
    let leasing = false;
    let recording = false;
    /** A lease found nothing while nothing of this run was under way: no more are taken in this run. */
    let exhausted = false;
    let failure: unknown = null;
    /** The next look, when the last found nothing leasable while attempts of this run were under way. */
    let later: NodeJS.Timeout | null = null;
    let flushSoon: NodeJS.Immediate | null = null;
    let finish = () => {};
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
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

    const underWay = () => active > 0 || queue.length > 0 || outcomes.length > 0 || recording || flushSoon !== null;
    const stopping = () => exhausted || closed() || failure !== null;
    const settle = () => {
      if (!stopping() || leasing || underWay()) return;
      if (later) clearTimeout(later);
      later = null;
      finish();
    };

    /** A look was asked for (`refill(true)`) that could not be taken then (a lease under way, every sender busy): it is taken at the next chance. */
    let lookNow = false;
    /**
     * Leases as many due deliveries as there are senders free (up to `batchSize`), so what is
     * leased is attempted at once and holds its endpoint's room no longer than its attempt.
     * While a look waits (`later`), only when asked to look now: an outcome was recorded (room
     * freed), the dispatcher was woken, or the wait is over.
     */
    const refill = (now = false) => {
      lookNow ||= now;
      if (leasing) return;
      const want = Math.min(batchSize, concurrency - active - queue.length);
      if (stopping() || want <= 0 || (later && !lookNow)) return;
      if (later) clearTimeout(later);
      later = null;
      leasing = true;
      lookNow = false;
      leaseDue(db, { ...room, batchSize: want })
        .then(
          (rows) => {
            const leasedAt = performance.now();
            for (const due of rows) queue.push({ due, leasedAt });
            // A full lease may leave more to lease at once; a short one took all there was room for.
            if (rows.length >= want || lookNow) return;
            if (!underWay()) exhausted = true;
            else {
              later = setTimeout(() => refill(true), pollMs);
              later.unref();
            }
          },
          (error: unknown) => {
            failure ??= error;
          },
        )
        .finally(() => {
          leasing = false;
          pump();
        });
    };

    /** Starts attempts from the queue while there is room for them, then leases more if the queue runs low. */
    const pump = () => {
      // After a database error nothing more is attempted: what is leased is left to its leases' expiry.
      if (failure !== null) queue.length = 0;
      while (active < concurrency && queue.length > 0) {
        const item = queue.shift()!;
        if (performance.now() - item.leasedAt > leaseMs / 2) continue;
        active++;
        attempt(item.due, open)
          .then(
            (outcome) => {
              outcomes.push(outcome);
              scheduleFlush();
            },
            (error: unknown) => {
              failure ??= error;
            },
          )
          .finally(() => {
            active--;
            pump();
          });
      }
      refill();
      settle();
    };

    /**
     * Records what has come, unless a record is being written (what comes meanwhile waits for
     * it). Called once the current turn of the event loop has handled every answer that had
     * arrived, so those that came together are recorded together: on PGlite, whose statements
     * run on this thread, a record started at the first answer would leave the others of the
     * turn to one statement each.
     */
    const scheduleFlush = () => {
      flushSoon ??= setImmediate(flush);
    };
    const flush = () => {
      flushSoon = null;
      if (recording || outcomes.length === 0) return settle();
      const group = outcomes;
      outcomes = [];
      recording = true;
      (async () => {
        await recordOutcomes(db, group, pauseSeconds);
        if (group.some((o) => !o.ok)) {
          const disabled = await disableFailing(
            { db, mailer, logger, disableAfterMs },
            group.filter((o) => o.gone).map((o) => o.id),
          );
          // What a disabled endpoint still had leased here was failed with the rest of its deliveries.
          if (disabled.size) queue.splice(0, queue.length, ...queue.filter((item) => !disabled.has(item.due.endpoint_id)));
        }
      })()
        .catch((error: unknown) => {
          failure ??= error;
        })
        .finally(() => {
          recording = false;
          if (outcomes.length > 0) scheduleFlush();
          // The record freed room at its endpoints: look for more at once.
          refill(true);
          pump();
        });
    };

    nudge = () => refill(true);
    try {
      pump();
      await finished;
    } finally {
      nudge = null;
    }
    if (failure !== null) throw failure;
  }

  const loop = startPollLoop({
    pollMs,
    logger,
    // The database is away: the deliveries stay pending (their leases expire) for the next look.
    what: 'webhooks could not be sent',
    async pass(closed) {
      await clean();
      await drain(closed);
    },
    // A test event or a redelivery while a run is under way: the run looks for it at once.
    nudge: () => nudge?.(),
  });

  return {
    /** Sends what is due now (tests, and an action that just queued a delivery). */
    runNow: loop.runNow,
    /** Asks for a look soon, as a test event or a redelivery does: at once, by the run under way or a new one. */
    wake: loop.wake,
    async close() {
      await loop.close();
      sender.close();
    },
  };
}
export type WebhookDispatcher = ReturnType<typeof createWebhookDispatcher>;
