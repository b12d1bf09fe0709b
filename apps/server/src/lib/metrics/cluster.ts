import cluster, { type Worker } from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { AggregatorRegistry } from 'prom-client';
import type { Metrics } from './metrics.ts';

/**
 * Metrics under CONSOLE_WORKERS > 1. A scrape reaches one worker (the API's port and the
 * metrics port are both shared by the workers), but it must answer for the whole server: the
 * worker asks the primary, the primary asks every worker that listens for its figures as JSON,
 * and answers their aggregate (counters and histograms summed, the figures every worker reads
 * alike from the database by their `aggregator`). A worker that does not answer within
 * COLLECT_TIMEOUT_MS is left out of that scrape rather than holding it.
 */
const SCRAPE = 'console:metrics:scrape';
const COLLECT = 'console:metrics:collect';
const FIGURES = 'console:metrics:figures';
const TEXT = 'console:metrics:text';
const COLLECT_TIMEOUT_MS = 3_000;

interface Message {
  type?: string;
  id?: string;
  figures?: object[];
  text?: string;
  error?: string;
}

/**
 * In a worker: answers the primary's requests for this process's figures, and scrapes through
 * the primary. Elsewhere (one process, the tests): the metrics as they are.
 */
export function clustered(metrics: Metrics): Metrics {
  if (!cluster.isWorker) return metrics;
  const waiting = new Map<string, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  process.on('message', (message: Message) => {
    if (message?.type === COLLECT && message.id) {
      metrics.figures().then(
        (figures) => process.send?.({ type: FIGURES, id: message.id, figures }),
        () => process.send?.({ type: FIGURES, id: message.id, figures: [] }),
      );
    } else if (message?.type === TEXT && message.id) {
      const pending = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error !== undefined) pending?.reject(new Error(message.error));
      else pending?.resolve(message.text ?? '');
    }
  });
  return {
    ...metrics,
    scrape: () =>
      new Promise<string>((resolve, reject) => {
        const id = randomUUID();
        waiting.set(id, { resolve, reject });
        process.send?.({ type: SCRAPE, id });
      }),
  };
}

/** In the primary: answers each worker's scrape with the aggregate of every listening worker's figures. */
export function aggregateWorkerMetrics(listening: () => Iterable<Worker>) {
  const collecting = new Map<string, { figures: object[][]; left: number; done: () => void }>();
  cluster.on('message', (worker, message: Message) => {
    if (message?.type === FIGURES && message.id) {
      const round = collecting.get(message.id);
      if (!round) return;
      round.figures.push(message.figures ?? []);
      if (--round.left === 0) round.done();
      return;
    }
    if (message?.type !== SCRAPE || !message.id) return;
    const asking = message.id;
    const workers = [...listening()].filter((w) => w.isConnected());
    const id = randomUUID();
    const round = { figures: [] as object[][], left: workers.length, done: () => {} };
    const all = new Promise<void>((resolve) => {
      round.done = resolve;
      if (workers.length === 0) resolve();
    });
    collecting.set(id, round);
    for (const w of workers) w.send({ type: COLLECT, id });
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, COLLECT_TIMEOUT_MS).unref());
    void Promise.race([all, timeout])
      .then(() => {
        collecting.delete(id);
        return AggregatorRegistry.aggregate(round.figures).metrics();
      })
      .then(
        (text) => worker.isConnected() && worker.send({ type: TEXT, id: asking, text }),
        (error: unknown) => worker.isConnected() && worker.send({ type: TEXT, id: asking, error: String(error) }),
      );
  });
}
