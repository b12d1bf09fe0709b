import { createSocket } from 'node:dgram';
import { afterAll, describe, expect, it } from 'vitest';
import { startDnsServer } from '../test/dns-server.ts';
import { lookupTxt } from './dns-txt.ts';

const dns = await startDnsServer();
afterAll(() => dns.close());

describe('lookupTxt: TXT records from a real DNS server', () => {
  it("joins each record's strings, and tells no record from a broken lookup", async () => {
    dns.records.set('_console-verification.acme.example', ['console-verification=abc', 'v=spf1 -all']);
    expect(await lookupTxt('_console-verification.acme.example', [dns.address])).toEqual({
      found: ['console-verification=abc', 'v=spf1 -all'],
    });
    expect(await lookupTxt('_console-verification.nothing.example', [dns.address])).toEqual({ found: [] });
  });

  it('reports a server that does not answer as a failed lookup, not as a missing record', async () => {
    // A UDP socket that reads questions and never answers: the resolver times out.
    const silent = createSocket('udp4');
    await new Promise<void>((done) => silent.bind(0, '127.0.0.1', done));
    try {
      const result = await lookupTxt('_console-verification.acme.example', [`127.0.0.1:${silent.address().port}`]);
      expect(result).toEqual({ failed: 'ETIMEOUT' });
    } finally {
      silent.close();
    }
  });
});
