import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import { createApiClient } from '@console/api-client';
import {
  USAGE_WINDOW,
  errorBodySchema,
  machineEndpoints,
  pathOf,
  type ActivationStatus,
  type Endpoint,
  type HeartbeatInput,
  type UsageBatchInput,
  type UsageEventInput,
} from '@console/domain';

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

export const SIMULATE_USAGE = `Usage: npm run usage:simulate -- --key oc_... --org <id>[,<id>...] --agent <code>[,<code>...] [options]
  --key K          the API key (or API_KEY); scopes entitlements:read, usage:write and agents:report
  --url U          the console's address (or APP_URL; default http://localhost:3000)
  --org IDS        organizations to report usage for (comma-separated, or repeated)
  --agent CODES    agent types to report usage of (comma-separated, or repeated); each
                   organization gets events for the agents it may use now
  --seller IDS     organizations above them (within the key's reach) whose earnings to print
                   beside the balances: what their balance gained over the run (comma-separated,
                   or repeated; credits moved to or from them meanwhile count too)
  --batches N      batches to send (default 5)
  --size N         events per batch (default 50, at most ${USAGE_WINDOW.batchMax})
  --interval MS    pause between batches (default 1000)
  --replay         send the last run's events again, as they were: every one is a duplicate
  --no-heartbeat   do not report heartbeats
  --state FILE     where the last run's events are kept for --replay (default: the system's temporary folder)`;

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
export class SimulateError extends Error {}

export interface BatchSummary {
  sent: number;
  accepted: number;
  duplicates: number;
  rejected: number;
  /** Rejections by reason, with one message of each. */
  reasons: Record<string, { count: number; message: string | null }>;
  /** What the accepted events took from the balances. */
  charged: string;
}

export interface SimulateResult {
  batches: BatchSummary[];
  /** Balances read from the entitlements before the first batch and after the last. */
  balances: { organization_id: string; before: string; after: string }[];
  /** The sellers' balances, read the same way, and what they gained: their earnings on the run (null: out of the key's reach). */
  earnings: { organization_id: string; before: string; after: string; earned: string | null }[];
  charged: string;
}

// Amounts ----------------------------------------------------------------------------

function cents(amount: string): bigint {
  const negative = amount.startsWith('-');
  const [whole, fraction = ''] = amount.replace('-', '').split('.');
  const value = BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
  return negative ? -value : value;
}

function amount(value: bigint): string {
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

// Options ----------------------------------------------------------------------------

const defaultStateFile = (key: string) => join(tmpdir(), `org-console-usage-simulate-${/^oc_[0-9a-f]{8}/.exec(key)?.[0] ?? 'key'}.json`);

function count(name: string, text: string | undefined, min: number, max: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new SimulateError(`${name} takes a whole number from ${min} to ${max}.`);
  return value;
}

/** The options from the command line and the environment (API_KEY, APP_URL). */
export function parseSimulateArgs(argv: string[], env: Record<string, string | undefined> = {}): SimulateOptions {
  const values = new Map<string, string[]>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--replay' || arg === '--no-heartbeat') {
      flags.add(arg);
      continue;
    }
    const match = /^--(key|url|org|agent|seller|batches|size|interval|state)(?:=(.*))?$/.exec(arg);
    if (!match) throw new SimulateError(`Unknown option ${arg}.\n${SIMULATE_USAGE}`);
    const value = match[2] ?? argv[++i];
    if (value === undefined) throw new SimulateError(`--${match[1]} needs a value.`);
    values.set(match[1]!, [...(values.get(match[1]!) ?? []), value]);
  }
  const last = (name: string) => values.get(name)?.at(-1);
  const list = (name: string) =>
    (values.get(name) ?? [])
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter(Boolean);
  const key = last('key') ?? env.API_KEY;
  if (!key) throw new SimulateError(`An API key is needed: --key oc_... or API_KEY.\n${SIMULATE_USAGE}`);
  const replay = flags.has('--replay');
  const options: SimulateOptions = {
    url: (last('url') ?? env.APP_URL ?? 'http://localhost:3000').replace(/\/+$/, ''),
    key,
    organizations: list('org'),
    agents: list('agent'),
    sellers: list('seller'),
    batches: count('--batches', last('batches') ?? '5', 1, 10_000),
    size: count('--size', last('size') ?? '50', 1, USAGE_WINDOW.batchMax),
    intervalMs: count('--interval', last('interval') ?? '1000', 0, 3_600_000),
    replay,
    heartbeat: !flags.has('--no-heartbeat'),
    stateFile: last('state') ?? defaultStateFile(key),
  };
  if (!replay && (options.organizations.length === 0 || options.agents.length === 0)) {
    throw new SimulateError(
      `Name the organizations and agents to report for: --org <id>[,<id>] --agent <code>[,<code>] (the machine API answers entitlements per organization and agent; it lists neither).\n${SIMULATE_USAGE}`,
    );
  }
  return options;
}

// The machine API --------------------------------------------------------------------

type Schema = z.ZodType;

/** What the generated client answers: the parsed body of a success or of an error, and the response. */
type Answer = { data?: unknown; error?: unknown; response: Response };

/**
 * The machine routes through the client generated from the API document. A network failure
 * or an answer other than 200 stops the run with a message; every answer is also checked
 * against the contract's schema, so an answer that is not the API's stops it too.
 */
function client(options: Pick<SimulateOptions, 'url' | 'key'>) {
  const api = createApiClient({ baseUrl: options.url, bearer: options.key });
  async function call<S extends Schema>(endpoint: Endpoint, schema: S, send: () => Promise<Answer>): Promise<z.output<S>> {
    const where = `${endpoint.method} ${pathOf(endpoint)}`;
    let answer: Answer;
    try {
      answer = await send();
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new SimulateError(
        `Cannot reach ${options.url} (${where}): ${cause?.code ?? cause?.message ?? String(error)}. Is the server running?`,
      );
    }
    if (answer.response.status !== 200) {
      const failure = errorBodySchema.safeParse(answer.error);
      const why = failure.success
        ? `${failure.data.error.code}: ${failure.data.error.message}`
        : String(typeof answer.error === 'string' ? answer.error : JSON.stringify(answer.error)).slice(0, 200);
      throw new SimulateError(`${where} answered HTTP ${answer.response.status} (${why}).`);
    }
    const parsed = schema.safeParse(answer.data);
    if (!parsed.success) throw new SimulateError(`${where} answered something that is not the API's answer: ${parsed.error.message}`);
    return parsed.data;
  }
  const { entitlement, heartbeat, reportUsage } = machineEndpoints;
  return {
    entitlement: (query: { organization_id: string; agent: string }) =>
      call(entitlement, entitlement.responses[200], () => api.GET('/api/v1/entitlements', { params: { query } })),
    heartbeat: (body: HeartbeatInput) => call(heartbeat, heartbeat.responses[200], () => api.POST('/api/v1/heartbeats', { body })),
    reportUsage: (body: UsageBatchInput) => call(reportUsage, reportUsage.responses[200], () => api.POST('/api/v1/usage-events', { body })),
  };
}

// The run ----------------------------------------------------------------------------

type SimEvent = Required<Pick<UsageEventInput, 'id' | 'organization_id' | 'agent' | 'occurred_at'>> & {
  units: string;
  metadata: Record<string, string>;
};

interface State {
  url: string;
  batches: SimEvent[][];
}

function readState(file: string): State {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new SimulateError(`No earlier run to replay (${file} is missing): run without --replay first.`);
  }
  const state = JSON.parse(text) as State;
  if (!Array.isArray(state.batches) || state.batches.length === 0) throw new SimulateError(`No events to replay in ${file}.`);
  return state;
}

function writeState(file: string, state: State) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(state), { mode: 0o600 });
}

/** The run: entitlements, heartbeats, batches, balances. `print` receives each line of the report. */
export async function simulateUsage(options: SimulateOptions, print: (line: string) => void): Promise<SimulateResult> {
  const api = client(options);
  const entitlement = (organization_id: string, agent: string) => api.entitlement({ organization_id, agent });

  const replayed = options.replay ? readState(options.stateFile) : null;
  const pairs = replayed
    ? [
        ...new Map(
          replayed.batches.flat().map((e) => [`${e.organization_id}/${e.agent}`, { organization_id: e.organization_id, agent: e.agent }]),
        ).values(),
      ]
    : options.organizations.flatMap((organization_id) => options.agents.map((agent) => ({ organization_id, agent })));

  print(`Entitlements at ${options.url}:`);
  const before = new Map<string, string>();
  const usable: { organization_id: string; agent: string; status: ActivationStatus }[] = [];
  for (const pair of pairs) {
    const answer = await entitlement(pair.organization_id, pair.agent);
    if (!before.has(pair.organization_id)) before.set(pair.organization_id, answer.balance);
    print(
      `  ${pair.organization_id}  ${pair.agent.padEnd(20)} ${answer.allowed ? 'allowed' : `not allowed (${answer.reason})`}, balance ${answer.balance}${answer.activation_status ? `, ${answer.activation_status}` : ''}`,
    );
    if (answer.allowed) usable.push({ ...pair, status: answer.activation_status ?? 'active' });
  }

  // The sellers' balances, read as any balance is: an entitlement answer (of any agent) for the seller.
  const sellerAgent = pairs[0]?.agent ?? 'unknown';
  const sellersBefore = new Map<string, string | null>();
  for (const seller of options.sellers) {
    const answer = await entitlement(seller, sellerAgent);
    sellersBefore.set(seller, answer.reason === 'out_of_reach' ? null : answer.balance);
  }

  if (options.heartbeat) {
    for (const pair of usable) {
      const beat = await api.heartbeat({ organization_id: pair.organization_id, agent: pair.agent, status: pair.status });
      print(
        `Heartbeat ${pair.organization_id} ${pair.agent}: ${beat.status}, health ${beat.health_score ?? 'unknown'}, last active ${beat.last_active_at}`,
      );
    }
  }

  let batchCount: number;
  let makeBatch: (index: number) => SimEvent[];
  if (replayed) {
    batchCount = replayed.batches.length;
    makeBatch = (index) => replayed.batches[index]!;
    print(`Replaying the last run: ${batchCount} batches, ${replayed.batches.flat().length} events with the same ids.`);
    if (replayed.url !== options.url) print(`(That run went to ${replayed.url}.)`);
  } else {
    if (usable.length === 0)
      throw new SimulateError('Nothing to send: no organization given may use any agent given (see the entitlements above).');
    const run = `${new Date().toISOString().replace(/[-:.]/g, '').slice(0, 15)}-${randomBytes(3).toString('hex')}`;
    const state: State = { url: options.url, batches: [] };
    batchCount = options.batches;
    // Events are made when their batch is sent (their time is now), and kept before it is
    // sent, so a run that stops halfway can still be replayed.
    makeBatch = (index) => {
      const events = Array.from({ length: options.size }, (_, n) => {
        const pair = usable[(index * options.size + n) % usable.length]!;
        return {
          id: `sim-${run}-${index + 1}-${n + 1}`,
          organization_id: pair.organization_id,
          agent: pair.agent,
          units: (0.5 + Math.random() * 4.5).toFixed(2),
          occurred_at: new Date().toISOString(),
          metadata: { source: 'usage:simulate' },
        };
      });
      state.batches[index] = events;
      writeState(options.stateFile, state);
      return events;
    };
    print(`Run ${run}: ${batchCount} batches of ${options.size} events over ${usable.length} organization and agent pairs.`);
  }

  const summaries: BatchSummary[] = [];
  let total = 0n;
  for (let index = 0; index < batchCount; index++) {
    if (index > 0 && options.intervalMs > 0) await sleep(options.intervalMs);
    const events = makeBatch(index);
    const result = await api.reportUsage({ events });
    if (result.results.length !== events.length)
      throw new SimulateError(`The API answered ${result.results.length} outcomes for ${events.length} events.`);
    let charged = 0n;
    const reasons: BatchSummary['reasons'] = {};
    for (const outcome of result.results) {
      if (outcome.status === 'accepted') charged += cents(outcome.credits_charged ?? '0.00');
      if (outcome.status === 'rejected') {
        const reason = (reasons[outcome.reason ?? 'unknown'] ??= { count: 0, message: outcome.message });
        reason.count++;
      }
    }
    total += charged;
    const summary = {
      sent: events.length,
      accepted: result.accepted,
      duplicates: result.duplicates,
      rejected: result.rejected,
      reasons,
      charged: amount(charged),
    };
    summaries.push(summary);
    const why = Object.entries(reasons).map(([reason, r]) => `${reason} ×${r.count}: ${r.message ?? ''}`);
    print(
      `Batch ${index + 1}/${batchCount}: ${summary.sent} sent, ${summary.accepted} accepted, ${summary.duplicates} duplicates, ${summary.rejected} rejected; ${summary.charged} credits charged` +
        why.map((line) => `\n    rejected ${line}`).join(''),
    );
  }

  const balances: SimulateResult['balances'] = [];
  print('Balances:');
  for (const [organization_id, was] of before) {
    const agent = pairs.find((p) => p.organization_id === organization_id)!.agent;
    const now = (await entitlement(organization_id, agent)).balance;
    balances.push({ organization_id, before: was, after: now });
    print(`  ${organization_id}  before ${was}, after ${now} (${amount(cents(now) - cents(was))})`);
  }
  const earnings: SimulateResult['earnings'] = [];
  for (const [organization_id, was] of sellersBefore) {
    if (was === null) {
      earnings.push({ organization_id, before: '0.00', after: '0.00', earned: null });
      print(`  ${organization_id}  a seller out of the key's reach: its earnings cannot be read`);
      continue;
    }
    const now = (await entitlement(organization_id, sellerAgent)).balance;
    const earned = amount(cents(now) - cents(was));
    earnings.push({ organization_id, before: was, after: now, earned });
    print(`  ${organization_id}  earned ${earned} (balance before ${was}, after ${now})`);
  }
  print(`Total charged: ${amount(total)} credits.`);
  return { batches: summaries, balances, earnings, charged: amount(total) };
}

/** The command: its exit code (0, 1 on a failure, 2 on bad options). */
export async function simulateMain(
  argv: string[],
  env: Record<string, string | undefined>,
  print: (line: string) => void,
  printError: (line: string) => void,
): Promise<number> {
  let options: SimulateOptions;
  try {
    options = parseSimulateArgs(argv, env);
  } catch (error) {
    if (!(error instanceof SimulateError)) throw error;
    printError(error.message);
    return 2;
  }
  try {
    await simulateUsage(options, print);
    return 0;
  } catch (error) {
    if (!(error instanceof SimulateError)) throw error;
    printError(`usage:simulate stopped: ${error.message}`);
    return 1;
  }
}
