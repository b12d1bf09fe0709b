/**
 * What a suite has built outside the bench's own bookkeeping (a PostgreSQL cluster of its own,
 * started with pg_ctl, outlives the bench process): undone by run.ts's signal handler when the
 * run is interrupted, as the servers and the fresh databases are.
 */
const undos = new Set<() => Promise<unknown>>();

/** Runs `fn`; should the run be interrupted meanwhile, `undo` runs before the bench exits. */
export async function undoOnInterrupt<T>(undo: () => Promise<unknown>, fn: () => Promise<T>): Promise<T> {
  undos.add(undo);
  try {
    return await fn();
  } finally {
    undos.delete(undo);
  }
}

/** For signal handlers: undoes whatever the running suite registered. */
export async function undoInterrupted(): Promise<void> {
  await Promise.allSettled([...undos].map((undo) => undo()));
}
