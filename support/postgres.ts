/**
 * PostgreSQL chores shared by the browser journeys, the benchmarks and the reliability
 * suites: a client for one piece of work, and fresh databases made and dropped on a server.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The URL of another database on the same server. */
export function withDatabaseName(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `fn` with a client connected to `url`, closed afterwards. */
export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export interface FreshDatabase {
  name: string;
  url: string;
  /** Drops the database, closing any connection still open to it. */
  drop(): Promise<void>;
}

/** A new database `<prefix>_<random>` on the server of `serverUrl`: empty, or a copy of `template`. */
export async function createDatabase(serverUrl: string, prefix: string, template?: string): Promise<FreshDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await withClient(serverUrl, (client) => client.query(`create database ${name}${template ? ` template ${template}` : ''}`));
  return {
    name,
    url: withDatabaseName(serverUrl, name),
    drop: async () => {
      await withClient(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}
