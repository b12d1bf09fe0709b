import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { allowedHosts, isPublicAddress, urlProblem } from './address.ts';
import { makeSigningSecret, secretSealer, signatureHeader } from './signing.ts';

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
    'ff02::1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])('accepts %s', (address) => {
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
