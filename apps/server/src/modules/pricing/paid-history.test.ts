import { describe, expect, it } from 'vitest';
import { useWorld } from '../../test/harness.ts';
import { addPrice, insertAgentType } from '../../test/usage-rows.ts';

const w = useWorld();
const db = () => w.t.database.db;
const as = async (who: string, method: string, path: string, body?: unknown) => w.t.request(method, path, body, { token: await w.as(who) });

describe('what a seller pays, in its price history', () => {
  it('lists each change of its own price, newest first, by the seller above it or the catalog; its own book is not one', async () => {
    const type = await insertAgentType(db(), 'paid-a', '1.0000');
    const put = async (who: string, org: string, price: string) =>
      expect((await as(who, 'PUT', `/api/organizations/${w.id(org as never)}/prices/${type.id}`, { price })).status).toBe(200);
    // A1's own book moves what its children pay, not what it pays.
    await put('A1.admin', 'A1', '1.5');
    // SA1 raises what A1 pays, then the catalog rises above every book.
    await put('SA1.admin', 'SA1', '2');
    await addPrice(db(), type.id, '3.0000', new Date());

    const paid = await as('A1.admin', 'GET', `/api/organizations/${w.id('A1')}/prices/paid`);
    expect(paid.status).toBe(200);
    const ofType = paid.body.items.filter((item: { agent_type: { id: string } }) => item.agent_type.id === type.id);
    expect(ofType).toEqual([
      expect.objectContaining({ before: '2.0000', after: '3.0000', set_by: null }),
      expect.objectContaining({
        agent_type: { id: type.id, code: 'paid-a', name: 'Agent paid-a' },
        before: '1.0000',
        after: '2.0000',
        set_by: { id: w.id('SA1'), name: expect.any(String) },
      }),
    ]);
    expect(ofType[0].effective_from > ofType[1].effective_from).toBe(true);

    // SA1 pays the catalog: only its rise.
    const above = await as('SA1.admin', 'GET', `/api/organizations/${w.id('SA1')}/prices/paid`);
    expect(above.body.items.filter((item: { agent_type: { id: string } }) => item.agent_type.id === type.id)).toEqual([
      expect.objectContaining({ before: '1.0000', after: '3.0000', set_by: null }),
    ]);

    // Read as the book is: by the seller's own people, not by its parent's nor by a tenant.
    expect((await as('SA1.admin', 'GET', `/api/organizations/${w.id('A1')}/prices/paid`)).status).toBe(403);
    expect((await as('H.admin', 'GET', `/api/organizations/${w.id('H')}/prices/paid`)).body).toEqual({ items: [] });
  });
});
