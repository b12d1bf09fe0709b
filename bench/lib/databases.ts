import { createDatabase, type FreshDatabase } from '../../support/postgres.ts';

/** Databases created by this run and not yet dropped, so an interrupted run can still drop them. */
const live = new Set<FreshDatabase>();

/** Runs `fn` with the URL of a fresh, empty database bench_<random>, dropped afterwards even on failure. */
export async function withFreshPostgres<T>(serverUrl: string, fn: (url: string) => Promise<T>): Promise<T> {
  const database = await createDatabase(serverUrl, 'bench');
  live.add(database);
  try {
    return await fn(database.url);
  } finally {
    await drop(database);
  }
}

async function drop(database: FreshDatabase): Promise<void> {
  await database.drop();
  live.delete(database);
}

/** For signal handlers: drops whatever this run still has. */
export async function dropLiveDatabases(): Promise<void> {
  await Promise.allSettled([...live].map(drop));
}
