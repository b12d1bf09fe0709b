import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.ts';

/**
 * A typed client of the API, generated from the document the app serves
 * (`npm run api:generate` writes openapi.json and src/schema.ts from it).
 */
export type { components, operations, paths } from './schema.ts';

export type ApiClient = Client<paths>;

export interface ApiClientOptions {
  /** The console's address, such as `https://console.example.com`; paths start with `/api`. */
  baseUrl: string;
  /** A session's access token, or an API key (`oc_...`) for the machine API. */
  bearer?: string;
  /** Another fetch (tests, retries). */
  fetch?: (request: Request) => Promise<Response>;
}

export function createApiClient({ baseUrl, bearer, fetch }: ApiClientOptions): ApiClient {
  return createClient<paths>({
    baseUrl,
    ...(bearer && { headers: { authorization: `Bearer ${bearer}` } }),
    ...(fetch && { fetch }),
  });
}
