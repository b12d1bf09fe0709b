/**
 * `npm run webhooks:listen` as a real process: it is sent one delivery signed as the
 * dispatcher signs (signing.ts) and one with a wrong signature, and must print the first
 * verified and the second not, then stop cleanly on SIGINT.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSigningSecret, signatureHeader } from '../apps/server/src/modules/webhooks/signing.ts';

const SCRIPT = fileURLToPath(new URL('./webhooks-listen.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));

let child: ChildProcess;
let output = '';
let url = '';
const secret = makeSigningSecret();

/** Waits until the output holds `pattern` (or fails after 20 s, showing what was printed). */
async function printed(pattern: RegExp): Promise<RegExpExecArray> {
  const end = Date.now() + 20_000;
  while (Date.now() < end) {
    const match = pattern.exec(output);
    if (match) return match;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the listener did not print ${pattern}; it printed:\n${output}`);
}

beforeAll(async () => {
  child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, '--port', '0', '--secret', secret], {
    cwd: ROOT,
    env: { ...process.env, WEBHOOK_SECRET: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  url = (await printed(/Listening for webhooks at (http:\/\/127\.0\.0\.1:\d+\/webhooks)/))[1]!;
  await printed(/Ctrl\+C to stop\./);
});

afterAll(() => {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function delivery(id: string) {
  return JSON.stringify({
    id,
    type: 'credits.adjusted',
    timestamp: new Date().toISOString(),
    organization: {
      id: randomUUID(),
      name: 'Tenant One',
      org_type: 'tenant',
      path: [
        { id: randomUUID(), name: 'Agency One' },
        { id: randomUUID(), name: 'Tenant One' },
      ],
    },
    data: { amount: '-5.00', balance_after: '95.00', notes: 'bench' },
  });
}

/** POSTs `body` as a delivery, its signature header made by `sign` from the timestamp sent. */
async function post(id: string, body: string, sign: (timestamp: number) => string) {
  const timestamp = Math.floor(Date.now() / 1000);
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': sign(timestamp),
    },
    body,
  });
  return response.status;
}

describe('npm run webhooks:listen', () => {
  it('says how to register it', () => {
    expect(output).toContain('WEBHOOK_ALLOWED_HOSTS=127.0.0.1');
    expect(output).toContain('Verifying with 1 secret; answering 200.');
  });

  it('prints a delivery signed as the dispatcher signs it as verified, with its type, organization, path and data', async () => {
    const id = randomUUID();
    const body = delivery(id);
    expect(await post(id, body, (timestamp) => signatureHeader([secret], id, timestamp, body))).toBe(200);
    const line = (await printed(new RegExp(`^.*${id}.*$`, 'm')))[0];
    expect(line).toMatch(/^\d\d:\d\d:\d\d\.\d{3} {2}✓ {2}/);
    expect(line).toContain('credits.adjusted');
    expect(line).toContain('Tenant One (Agency One › Tenant One)');
    expect(line).toContain('{"amount":"-5.00","balance_after":"95.00","notes":"bench"}');
    expect(line).not.toContain('not verified');
  });

  it('prints a delivery under a wrong signature as not verified', async () => {
    const id = randomUUID();
    const wrong = `v1,${randomBytes(32).toString('base64')}`;
    expect(await post(id, delivery(id), () => wrong)).toBe(200);
    const line = (await printed(new RegExp(`^.*${id}.*$`, 'm')))[0];
    expect(line).toMatch(/^\d\d:\d\d:\d\d\.\d{3} {2}✗ {2}/);
    expect(line).toContain('not verified');
  });

  it('stops on SIGINT with exit code 0, counting what it received', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(output).toContain('Stopped: 2 deliveries received, 1 verified.');
  });
});
