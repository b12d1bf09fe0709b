/**
 * `npm run webhooks:listen -- [--port 4400] [--secret whsec_...] [--status 200]`: a local
 * webhook receiver for development. It verifies each delivery's signature with the
 * `standardwebhooks` package, under every secret given (two during a rotation), prints one
 * line per event (time, ✓ or ✗, webhook-id, type, the organization with its path, the data)
 * and answers each with the status asked for.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { Webhook } from 'standardwebhooks';

const USAGE = `Usage: npm run webhooks:listen -- [options]
  --port N        the port to listen on, on 127.0.0.1 (default 4400; 0 picks a free one)
  --secret S      an endpoint's signing secret (whsec_...), to verify deliveries with; repeat it
                  during a rotation (or WEBHOOK_SECRET, several separated by commas or spaces)
  --status N      the status to answer every delivery with (default 200; e.g. 500 to see retries)
  --help          this text`;

/** Deliveries are printed with at most this much of their data. */
const DATA_CHARS = 300;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

let values: { port?: string; secret?: string[]; status?: string; help?: boolean };
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string' },
      secret: { type: 'string', multiple: true },
      status: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  }));
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const port = Number(values.port ?? 4400);
if (!Number.isInteger(port) || port < 0 || port > 65_535) fail('--port takes a whole number from 0 to 65535');
const status = Number(values.status ?? 200);
if (!Number.isInteger(status) || status < 200 || status > 599) fail('--status takes a status from 200 to 599');
const secrets = [...(values.secret ?? []), ...(process.env.WEBHOOK_SECRET ?? '').split(/[\s,]+/)].map((s) => s.trim()).filter(Boolean);
const verifiers = secrets.map((secret) => {
  try {
    return new Webhook(secret);
  } catch {
    return fail(`${secret.slice(0, 10)}… is not a signing secret (whsec_ and base64)`);
  }
});

/** ✓ when one of the secrets verifies the delivery, ✗ and why when none does, – without secrets. */
function verify(body: string, headers: Record<string, string>): { mark: string; reason: string | null } {
  if (verifiers.length === 0) return { mark: '–', reason: null };
  let reason = 'no secret verifies it';
  for (const verifier of verifiers) {
    try {
      verifier.verify(body, headers);
      return { mark: '✓', reason: null };
    } catch (error) {
      reason = error instanceof Error ? error.message : String(error);
    }
  }
  return { mark: '✗', reason };
}

const clock = (date: Date) => date.toTimeString().slice(0, 8) + '.' + String(date.getMilliseconds()).padStart(3, '0');
const cut = (text: string, chars: number) => (text.length > chars ? `${text.slice(0, chars - 1)}…` : text);

/** The line of one delivery. */
function describe(body: string, headers: Record<string, string>, path: string): { line: string; mark: string } {
  const { mark, reason } = verify(body, headers);
  const parts = [clock(new Date()), mark, headers['webhook-id'] ?? '(no webhook-id)'];
  let json: any = null;
  try {
    json = JSON.parse(body);
  } catch {
    // not JSON: its start is printed instead
  }
  if (json && typeof json === 'object') {
    parts.push(String(json.type ?? '(no type)'));
    const organization = json.organization;
    if (organization && typeof organization === 'object') {
      const names = Array.isArray(organization.path) ? organization.path.map((o: { name?: unknown }) => String(o?.name ?? '?')) : [];
      parts.push(names.length > 1 ? `${organization.name} (${names.join(' › ')})` : String(organization.name));
    }
    parts.push(cut(JSON.stringify(json.data ?? null), DATA_CHARS));
  } else {
    parts.push(`(not JSON) ${cut(JSON.stringify(body), DATA_CHARS)}`);
  }
  if (path !== '/webhooks') parts.push(`[${path}]`);
  if (reason) parts.push(`— not verified: ${reason}`);
  return { line: parts.join('  '), mark };
}

let deliveries = 0;
let verified = 0;
const server = createServer((request, response) => {
  if (request.method !== 'POST') {
    response.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
    const { line, mark } = describe(body, headers, new URL(request.url ?? '/', 'http://receiver').pathname);
    deliveries++;
    if (mark === '✓') verified++;
    console.log(line);
    response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : `answered ${status} as asked`);
  });
});

server.on('error', (error: NodeJS.ErrnoException) => {
  console.error(error.code === 'EADDRINUSE' ? `Port ${port} is taken: choose another with --port.` : error.message);
  process.exit(1);
});
server.listen(port, '127.0.0.1', () => {
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  console.log(`Listening for webhooks at ${url}`);
  console.log(`Register that URL as an endpoint (an organization's Webhooks page, or POST /api/organizations/<id>/webhooks).`);
  console.log(`The server must run with WEBHOOK_ALLOWED_HOSTS=127.0.0.1 to send to a loopback address over plain http.`);
  console.log(
    verifiers.length
      ? `Verifying with ${verifiers.length} secret${verifiers.length > 1 ? 's' : ''}; answering ${status}. Ctrl+C to stop.`
      : `No secret given (--secret or WEBHOOK_SECRET): signatures are not checked (–); answering ${status}. Ctrl+C to stop.`,
  );
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.log(`\nStopped: ${deliveries} deliver${deliveries === 1 ? 'y' : 'ies'} received, ${verified} verified.`);
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}
