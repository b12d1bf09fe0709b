/**
 * `npm run usage:simulate`: an agent runtime on the public machine API. With an API key it
 * reads the entitlement of each organization and agent asked for, reports a heartbeat for
 * each one it may use (keeping the status it has), then sends batches of usage events with
 * ids of its own (a re-run never charges twice; `--replay` sends the last run's events again
 * to show them answered as duplicates), and prints each batch's outcomes, the balances
 * before and after, and the credits charged; with `--seller`, beside them what each seller
 * above those organizations earned over the run. The machine API answers no organization's
 * ancestors nor its earnings: a seller's balance is read as any balance is, from the
 * entitlement answer (for an organization within the key's reach), and its earnings are what
 * its balance gained from before the first batch to after the last. It calls the API through the client generated
 * from the API document, and checks every answer against the API's schemas; a network or
 * HTTP failure stops it with a message.
 */
export declare const SIMULATE_USAGE: string;
export interface SimulateOptions {
  url: string;
  key: string;
  organizations: string[];
  agents: string[];
  /** Sellers above the organizations, whose earnings (balance gained over the run) are printed. */
  sellers: string[];
  batches: number;
  size: number;
  intervalMs: number;
  replay: boolean;
  heartbeat: boolean;
  stateFile: string;
}
/** A failure to report: bad options, the network, or an answer that is not the API's. */
export declare class SimulateError extends Error {}
export interface BatchSummary {
  sent: number;
  accepted: number;
  duplicates: number;
  rejected: number;
  /** Rejections by reason, with one message of each. */
  reasons: Record<
    string,
    {
      count: number;
      message: string | null;
    }
  >;
  /** What the accepted events took from the balances. */
  charged: string;
}
export interface SimulateResult {
  batches: BatchSummary[];
  /** Balances read from the entitlements before the first batch and after the last. */
  balances: {
    organization_id: string;
    before: string;
    after: string;
  }[];
  /** The sellers' balances, read the same way, and what they gained: their earnings on the run (null: out of the key's reach). */
  earnings: {
    organization_id: string;
    before: string;
    after: string;
    earned: string | null;
  }[];
  charged: string;
}
/** The options from the command line and the environment (API_KEY, APP_URL). */
export declare function parseSimulateArgs(argv: string[], env?: Record<string, string | undefined>): SimulateOptions;
/** The run: entitlements, heartbeats, batches, balances. `print` receives each line of the report. */
export declare function simulateUsage(options: SimulateOptions, print: (line: string) => void): Promise<SimulateResult>;
/** The command: its exit code (0, 1 on a failure, 2 on bad options). */
export declare function simulateMain(
  argv: string[],
  env: Record<string, string | undefined>,
  print: (line: string) => void,
  printError: (line: string) => void,
): Promise<number>;
