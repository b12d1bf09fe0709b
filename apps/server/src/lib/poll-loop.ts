import type { FastifyBaseLogger } from 'fastify';

/** How long closing waits for a pass under way. */
const CLOSE_WAIT_MS = 5_000;

/**
 * A background loop over the database: `pass` runs every `pollMs` after the last one ended
 * (the first one `firstAfterMs` after the start, `pollMs` unless given), never two at once in
 * a process: a pass asked for while one is under way (`runNow`, the timer) starts once it has
 * ended. Processes share the work through the rows the pass takes (`for update skip locked`,
 * a lease, a unique key), not through this loop. A pass that fails (the database is away, a
 * mail could not be stored) is logged as a warning under `what` and its work stays for the
 * next look. `wake()` asks for a look at once: with a pass under way it calls `nudge` (the
 * pass may take the new work itself), otherwise a pass starts now. `close()` stops looking
 * and waits a little for a pass under way, which can ask `closed()` to stop between its
 * transactions.
 */
export function startPollLoop(options: {
  pollMs: number;
  /** The wait before the first pass (default `pollMs`; 0 looks at once, for work left by a process before). */
  firstAfterMs?: number;
  logger: FastifyBaseLogger;
  /** The warning logged when a pass fails. */
  what: string;
  pass: (closed: () => boolean) => Promise<void>;
  /** What `wake()` does while a pass is under way (by default nothing: the next look finds the work). */
  nudge?: () => void;
}) {
  const { pollMs, logger, what, pass, nudge } = options;
  let timer: NodeJS.Timeout | null = null;
  /** The pass under way, or the last one asked for (each waits for the one before it). */
  let running: Promise<void> | null = null;
  let closed = false;

  async function run() {
    try {
      await pass(() => closed);
    } catch (error) {
      logger.warn({ error: error instanceof Error ? error.message.slice(0, 200) : String(error).slice(0, 200) }, what);
    }
  }

  /** A pass once the one under way (if any) has ended; `looking` passes (the timer's, a wake's) are skipped once closed. */
  function enqueue(looking: boolean): Promise<void> {
    const next = (running ?? Promise.resolve()).then(() => (looking && closed ? undefined : run()));
    const tracked = next.finally(() => {
      if (running === tracked) running = null;
    });
    running = tracked;
    return tracked;
  }

  /** A timer's or a wake's pass, then the next look `pollMs` after it. */
  function look() {
    timer = null;
    void enqueue(true).finally(() => schedule(pollMs));
  }

  function schedule(delayMs: number) {
    if (closed) return;
    timer = setTimeout(look, delayMs);
    timer.unref();
  }

  schedule(options.firstAfterMs ?? pollMs);
  return {
    /** Runs a pass now, after the one under way (tests, and a caller that just queued work). */
    runNow(): Promise<void> {
      return enqueue(false);
    },
    /** Asks for a look now (work was just queued): the pass under way is nudged, or a pass starts in place of the wait. */
    wake() {
      if (closed) return;
      if (running) return nudge?.();
      if (!timer) return;
      clearTimeout(timer);
      look();
    },
    /** Stops looking, letting a pass under way finish (the app calls it when it closes). */
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      if (running) {
        let wait: NodeJS.Timeout | undefined;
        await Promise.race([running, new Promise((resolve) => (wait = setTimeout(resolve, CLOSE_WAIT_MS)))]).finally(() =>
          clearTimeout(wait),
        );
      }
    },
  };
}
