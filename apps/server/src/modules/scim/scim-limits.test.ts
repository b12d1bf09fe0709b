import { describe, expect, it } from 'vitest';
import { useWorld } from '../../test/harness.ts';
import { expectScimError, makeScimToken, scimClient } from '../../test/scim-client.ts';

// Small allowances: 3 requests a token and 8 an address per window, counted in the shared table.
const w = useWorld({ rateLimits: { scimPerToken: 3, scimPerAddress: 8 } });

describe('SCIM rate limits', () => {
  it('limits each token, then each address (unknown tokens too), with 429 in the SCIM shape and Retry-After', async () => {
    const token = await makeScimToken(w, 'A1.admin', w.id('A1'), 'Busy');
    const scim = scimClient(w.t, token.secret);
    for (let i = 0; i < 3; i++) expect((await scim.get('/Users?count=1')).status).toBe(200);
    const limited = await scim.get('/Users?count=1');
    expectScimError(limited, 429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // The refused call of a known token is recorded.
    const calls = await w.t.request('GET', `/api/organizations/${w.id('A1')}/scim-calls`, undefined, { token: await w.as('A1.admin') });
    expect(calls.body.items[0]).toMatchObject({ status: 429, token: { name: 'Busy' } });

    // Four requests from this address so far; guesses at tokens count against it too.
    const guess = scimClient(w.t, 'scim_guess');
    for (let i = 0; i < 4; i++) expectScimError(await guess.get('/Users'), 401);
    expectScimError(await guess.get('/Users'), 429);
    const other = scimClient(w.t, (await makeScimToken(w, 'T1.admin', w.id('T1'), 'Other')).secret);
    expectScimError(await other.get('/Users'), 429);
  });
});
