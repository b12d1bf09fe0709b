import type { FastifyBaseLogger } from 'fastify';

/** How long closing waits for a pass under way. */
const CLOSE_WAIT_MS = 5_000;

/**
 * A background loop over the database: `pass` runs every `pollMs` (the first one `pollMs`
 * after the start), never two at once in a process. Processes share the work through the rows
 * the pass takes (`for update skip locked`, a unique key), not through this loop. A pass that
 * fails (the database is away, a mail could not be stored) is logged as a warning under `what`
 * and its work stays for the next look. `close()` stops looking and waits a little for a pass
 * under way, which can ask `closed()` to stop between its transactions.
 */
export function startPollLoop(options: {
  pollMs: number;
  logger: FastifyBaseLogger;
  /** The warning logged when a pass fails. */
  what: string;
  pass: (closed: () => boolean) => Promise<void>;
}) {
  const { pollMs, logger, what, pass } = options;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  let closed = false;

  async function run() {
    try {
      await pass(() => closed);
    } catch (error) {
      logger.warn({ error: error instanceof Error ? error.message.slice(0, 200) : String(error).slice(0, 200) }, what);
    }
  }

  function schedule() {
    if (closed) return;
    timer = setTimeout(() => {
      timer = null;
      running = run().finally(() => {
        running = null;
        schedule();
      });
    }, pollMs);
    timer.unref();
  }

  schedule();
  return {
    /** Runs a pass now, after the one under way (tests, and a caller that just queued work). */
    async runNow() {
      await (running ?? Promise.resolve());
      await run();
    },
    /** Stops looking, letting a pass under way finish (the app calls it when it closes). */
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      if (running) {
        let wait: NodeJS.Timeout | undefined;
        await Promise.race([running, new Promise((resolve) => (wait = setTimeout(resolve, CLOSE_WAIT_MS)))]).finally(() =>
          clearTimeout(wait),
        );
      }
    },
  };
}
