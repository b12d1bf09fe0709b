import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Databases created by this run and not yet dropped, so an interrupted run can still drop them. */
const live = new Set<{ serverUrl: string; name: string }>();

export function withDatabaseName(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onServer<T>(serverUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Runs `fn` with the URL of a fresh, empty database bench_<random>, dropped afterwards even on failure. */
export async function withFreshPostgres<T>(serverUrl: string, fn: (url: string) => Promise<T>): Promise<T> {
  const entry = { serverUrl, name: `bench_${randomBytes(6).toString('hex')}` };
  await onServer(serverUrl, (client) => client.query(`create database ${entry.name}`));
  live.add(entry);
  try {
    return await fn(withDatabaseName(serverUrl, entry.name));
  } finally {
    await dropDatabase(entry);
  }
}

async function dropDatabase(entry: { serverUrl: string; name: string }): Promise<void> {
  await onServer(entry.serverUrl, (client) => client.query(`drop database if exists ${entry.name} with (force)`));
  live.delete(entry);
}

/** For signal handlers: drops whatever this run still has. */
export async function dropLiveDatabases(): Promise<void> {
  await Promise.allSettled([...live].map(dropDatabase));
}
