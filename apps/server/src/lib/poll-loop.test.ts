import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startPollLoop } from './poll-loop.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A logger keeping its warnings. */
function logger() {
  const warnings: { fields: unknown; msg: string }[] = [];
  const log = { warn: (fields: unknown, msg: string) => warnings.push({ fields, msg }) } as unknown as FastifyBaseLogger;
  return { log, warnings };
}

/** A promise resolved from outside. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const loops: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(loops.splice(0).map((loop) => loop.close()));
});
function start(options: Parameters<typeof startPollLoop>[0]) {
  const loop = startPollLoop(options);
  loops.push(loop);
  return loop;
}

describe('the background poll loop', () => {
  it('runs its first pass after firstAfterMs (pollMs unless given), then pollMs after each pass', async () => {
    const { log } = logger();
    const at: number[] = [];
    const began = performance.now();
    start({ pollMs: 40, logger: log, what: 'x', pass: async () => void at.push(performance.now() - began) });
    await sleep(20);
    expect(at).toEqual([]);
    await sleep(150);
    expect(at.length).toBeGreaterThanOrEqual(2);
    expect(at[0]).toBeGreaterThanOrEqual(35);
    for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(35);

    const first: number[] = [];
    start({ pollMs: 10_000, firstAfterMs: 0, logger: log, what: 'x', pass: async () => void first.push(1) });
    await sleep(20);
    expect(first).toEqual([1]);
  });

  it('never runs two passes at once: runNow, the timer and a wake wait for the pass under way', async () => {
    const { log } = logger();
    let inPass = 0;
    let most = 0;
    let passes = 0;
    const loop = start({
      pollMs: 5,
      logger: log,
      what: 'x',
      async pass() {
        inPass++;
        most = Math.max(most, inPass);
        await sleep(15);
        inPass--;
        passes++;
      },
    });
    await sleep(8);
    await Promise.all([loop.runNow(), loop.runNow(), loop.runNow()]);
    loop.wake();
    await loop.runNow();
    expect(passes).toBeGreaterThanOrEqual(4);
    expect(most).toBe(1);
  });

  it('logs a failed pass as a warning under its name and looks again at the next turn', async () => {
    const { log, warnings } = logger();
    let passes = 0;
    start({
      pollMs: 10,
      logger: log,
      what: 'things could not be done',
      async pass() {
        passes++;
        if (passes === 1) throw new Error('the database is away');
      },
    });
    await sleep(80);
    expect(warnings).toEqual([{ fields: { error: 'the database is away' }, msg: 'things could not be done' }]);
    expect(passes).toBeGreaterThanOrEqual(2);
  });

  it('wake nudges the pass under way, or starts a pass at once in place of the wait', async () => {
    const { log } = logger();
    const nudges: number[] = [];
    let passes = 0;
    let hold: ReturnType<typeof gate> | null = null;
    const loop = start({
      pollMs: 60_000,
      logger: log,
      what: 'x',
      nudge: () => nudges.push(passes),
      async pass() {
        passes++;
        if (hold) await hold.opened;
      },
    });
    loop.wake();
    await sleep(5);
    expect(passes).toBe(1);
    expect(nudges).toEqual([]);

    hold = gate();
    loop.wake();
    await sleep(5);
    expect(passes).toBe(2);
    loop.wake();
    expect(nudges).toEqual([2]);
    hold.open();
    await sleep(5);
    expect(passes).toBe(2);
  });

  it('close stops the looks and waits for the pass under way, which sees closed()', async () => {
    const { log } = logger();
    const hold = gate();
    let passes = 0;
    let sawClosed: boolean | null = null;
    let ended = false;
    const loop = start({
      pollMs: 5,
      logger: log,
      what: 'x',
      async pass(closed) {
        passes++;
        await hold.opened;
        sawClosed = closed();
        ended = true;
      },
    });
    await sleep(20);
    expect(passes).toBe(1);
    const closing = loop.close();
    let closedYet = false;
    void closing.then(() => (closedYet = true));
    await sleep(10);
    expect(closedYet).toBe(false);
    hold.open();
    await closing;
    expect(ended).toBe(true);
    expect(sawClosed).toBe(true);
    await sleep(20);
    loop.wake();
    await sleep(10);
    expect(passes).toBe(1);
  });
});

describe('closing with a pass that never ends', () => {
  it('gives up waiting after a while', async () => {
    vi.useFakeTimers();
    try {
      const { log } = logger();
      const loop = startPollLoop({ pollMs: 10, logger: log, what: 'x', pass: () => new Promise(() => {}) });
      await vi.advanceTimersByTimeAsync(10);
      let closedYet = false;
      void loop.close().then(() => (closedYet = true));
      await vi.advanceTimersByTimeAsync(4_000);
      expect(closedYet).toBe(false);
      await vi.advanceTimersByTimeAsync(1_500);
      expect(closedYet).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
