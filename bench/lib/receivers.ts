import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { supervise } from '../../support/server-process.ts';
import type { ReceiverMessage, ReceiverRequest, RoundStats } from './receiver-child.ts';

const CHILD = fileURLToPath(new URL('./receiver-child.ts', import.meta.url));

export interface Receivers {
  /** http://127.0.0.1:<port>/hooks of each receiver. */
  urls: string[];
  /**
   * Starts a round: counts reset, receiver n verifies under secrets[n], bodies kept when
   * `keep`; `done` resolves once `total` deliveries have arrived.
   */
  expect(secrets: string[], total: number, keep?: boolean): Promise<{ done: Promise<RoundStats> }>;
  /** The round's counts so far (without the kept bodies). */
  stats(): Promise<RoundStats>;
  /** CPU time the receivers' process has used so far, in microseconds. */
  cpuMicros(): Promise<number>;
}

/** Runs `fn` with `count` webhook receivers in a child process (bench/lib/receiver-child.ts), stopped afterwards. */
export async function withReceivers<T>(count: number, fn: (receivers: Receivers) => Promise<T>): Promise<T> {
  const child = fork(CHILD, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_RECEIVERS: JSON.stringify({ count }) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { exited, stop } = supervise(child);
  // One waiter queue per message type: 'done' comes whenever a round completes, between answers.
  const waiters = new Map<ReceiverMessage['type'], ((message: ReceiverMessage) => void)[]>();
  child.on('message', (message: ReceiverMessage) => waiters.get(message.type)?.shift()?.(message));
  const next = <K extends ReceiverMessage['type']>(type: K) =>
    new Promise<Extract<ReceiverMessage, { type: K }>>((resolve) => {
      const list = waiters.get(type) ?? [];
      list.push(resolve as (message: ReceiverMessage) => void);
      waiters.set(type, list);
    });
  const ask = <K extends ReceiverMessage['type']>(request: ReceiverRequest, type: K) => {
    const answer = next(type);
    child.send(request);
    return answer;
  };
  try {
    const ready = await Promise.race([
      next('ready'),
      exited.then(({ code }) => Promise.reject(new Error(`bench receivers exited with code ${code} before listening`))),
    ]);
    return await fn({
      urls: ready.ports.map((port) => `http://127.0.0.1:${port}/hooks`),
      async expect(secrets, total, keep = false) {
        const done = next('done').then((message) => message.stats);
        await ask({ type: 'expect', secrets, total, keep }, 'expecting');
        return { done };
      },
      async stats() {
        return (await ask({ type: 'stats' }, 'stats')).stats;
      },
      async cpuMicros() {
        return (await ask({ type: 'cpu' }, 'cpu')).micros;
      },
    });
  } finally {
    await stop({ ask: () => (child.connected ? child.send({ type: 'stop' } satisfies ReceiverRequest) : child.kill('SIGTERM')) });
  }
}
