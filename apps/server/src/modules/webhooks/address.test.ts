import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { allowedHosts, guardedLookup, isPublicAddress, urlProblem, type Resolve } from './address.ts';
import { secretSealer } from '../../lib/sealer.ts';
import { makeSigningSecret, signatureHeader } from './signing.ts';

describe('isPublicAddress', () => {
  it.each([
    '0.0.0.0',
    '10.0.0.1',
    '100.64.1.1',
    '127.0.0.1',
    '127.255.255.254',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '192.0.2.10',
    '198.18.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fc00::1',
    'fd00:ec2::254',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '64:ff9b::a9fe:a9fe',
    // Every form of IPv6 that carries an IPv4 address is judged by that address.
    '::127.0.0.1',
    '::7f00:1',
    '::a9fe:a9fe',
    '::ffff:0:127.0.0.1',
    '::ffff:0:7f00:1',
    '::ffff:0:a00:1',
    '64:ff9b::127.0.0.1',
    '2002:7f00:1::',
    '2002:a9fe:a9fe:1::1',
    '2002:c0a8:101::1',
    // Teredo: a public server (94.245.121.253) relaying to 10.0.0.1 (its last 32 bits, inverted).
    '2001:0:5ef5:79fd:0:0:f5ff:fffe',
    // Teredo: a loopback server.
    '2001:0:7f00:1:0:0:f7f7:f7f7',
    'ff02::1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '::ffff:0:808:808',
    '64:ff9b::808:808',
    '2002:808:808::1',
    // Teredo: public server and client (8.8.4.4, inverted f7f7:fbfb).
    '2001:0:5ef5:79fd:0:0:f7f7:fbfb',
  ])('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('urlProblem', () => {
  const none = allowedHosts([]);
  it.each([
    ['https://127.0.0.1/x', 'private'],
    ['https://localhost/x', 'private'],
    ['https://api.localhost/x', 'private'],
    ['https://2130706433/x', 'private'],
    ['https://0x7f.1/x', 'private'],
    ['https://[::ffff:169.254.169.254]/x', 'private'],
    ['https://[::127.0.0.1]/x', 'private'],
    ['https://[::ffff:0:127.0.0.1]/x', 'private'],
    ['https://[64:ff9b::10.0.0.1]/x', 'private'],
    ['https://[2002:7f00:1::1]/x', 'private'],
    ['https://localhost./x', 'private'],
    ['https://LOCALHOST../x', 'private'],
    ['https://api.localhost./x', 'private'],
    ['http://8.8.8.8/x', 'https_only'],
  ])('refuses %s as %s', async (url, kind) => {
    expect((await urlProblem(url, none))?.kind).toBe(kind);
  });

  it('accepts public https and what the configuration allows, over http too', async () => {
    expect(await urlProblem('https://8.8.8.8/hooks', none)).toBeNull();
    const dev = allowedHosts(['127.0.0.1', 'localhost', '10.0.0.0/8']);
    expect(await urlProblem('http://127.0.0.1:4400/webhooks', dev)).toBeNull();
    expect(await urlProblem('http://localhost:4400/webhooks', dev)).toBeNull();
    expect(await urlProblem('http://10.2.3.4/webhooks', dev)).toBeNull();
    expect((await urlProblem('http://192.168.0.2/webhooks', dev))?.kind).toBe('https_only');
  });
});

describe('signing', () => {
  it('signs as Standard Webhooks verifies, with every secret given', () => {
    const [a, b] = [makeSigningSecret(), makeSigningSecret()];
    const body = JSON.stringify({ type: 'balance.low', data: { balance: '1.00' } });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'webhook-id': 'evt-1',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader([a, b], 'evt-1', timestamp, body),
    };
    expect(() => new Webhook(a).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(b).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(makeSigningSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(a).verify(`${body} `, headers)).toThrow();
  });

  it('seals a secret so only the same server secret opens it', () => {
    const secret = makeSigningSecret();
    const sealed = secretSealer('x'.repeat(32)).seal(secret);
    expect(sealed).not.toContain(secret.slice(6));
    expect(secretSealer('x'.repeat(32)).open(sealed)).toBe(secret);
    expect(secretSealer('y'.repeat(32)).open(sealed)).toBeNull();
    expect(secretSealer('x'.repeat(32)).open(`${sealed.slice(0, -2)}AA`)).toBeNull();
  });
});

describe('a name with several addresses', () => {
  /** Answers as a hosts file listing these names would (the resolver seam the checks take); anything else does not resolve. */
  const hosts =
    (table: Record<string, string[]>): Resolve =>
    (hostname, _options, callback) => {
      const addresses = table[hostname];
      if (!addresses) return callback(Object.assign(new Error(`${hostname} not found`), { code: 'ENOTFOUND' }), []);
      callback(
        null,
        addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      );
    };
  const table = hosts({
    'public.example': ['93.184.216.34', '2606:4700::1111'],
    'public-first.example': ['93.184.216.34', '10.0.0.1'],
    'private-first.example': ['169.254.169.254', '93.184.216.34'],
    'mapped.example': ['2606:4700::1111', '::ffff:127.0.0.1'],
    'dev.example': ['10.1.2.3', '127.0.0.1'],
  });
  const none = allowedHosts([]);

  it('is registered only when every address is public, whichever comes first', async () => {
    expect(await urlProblem('https://public.example/x', none, table)).toBeNull();
    for (const host of ['public-first.example', 'private-first.example', 'mapped.example'])
      expect((await urlProblem(`https://${host}/x`, none, table))?.kind, host).toBe('private');
    // Allowing one of its private addresses is not allowing the other.
    expect((await urlProblem('https://dev.example/x', allowedHosts(['10.0.0.0/8']), table))?.kind).toBe('private');
    expect(await urlProblem('https://dev.example/x', allowedHosts(['10.0.0.0/8', '127.0.0.1']), table)).toBeNull();
  });

  it('is connected to only when every address is public', async () => {
    const check = (host: string) =>
      new Promise<string | null>((resolve) => guardedLookup(none, table)(host, { all: true }, (error) => resolve(error?.code ?? null)));
    expect(await check('public.example')).toBeNull();
    expect(await check('public-first.example')).toBe('EWEBHOOKADDRESS');
    expect(await check('private-first.example')).toBe('EWEBHOOKADDRESS');
    expect(await check('mapped.example')).toBe('EWEBHOOKADDRESS');
  });
});
