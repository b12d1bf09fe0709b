import { type IncomingMessage, type ServerResponse } from 'node:http';
export interface Received {
  id: string;
  headers: Record<string, string>;
  body: string;
  json: any;
  /** Whether the signature verified with the secret the receiver holds then (standardwebhooks). */
  verified: boolean;
}
type Answer = (request: IncomingMessage, response: ServerResponse, received: Received) => void;
/**
 * A real local receiver: it records every delivery, verifies its signature with the
 * `standardwebhooks` package under the secrets it is given, and answers as the test says
 * (200 by default).
 */
export declare function startReceiver(): Promise<{
  url: (path?: string) => string;
  received: Received[];
  trust(...list: string[]): void;
  answer(next: Answer): void;
  of(type: string): Received[];
  close: () => Promise<void>;
}>;
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
/** Waits until `check` holds (every 25 ms, up to `ms`), or fails with `what`. */
export declare function until(check: () => boolean | Promise<boolean>, what: string, ms?: number): Promise<void>;
export {};
