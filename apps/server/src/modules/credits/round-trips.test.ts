import { describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { useWorld } from '../../test/harness.ts';
import { activate, insertAgentType } from '../../test/usage-rows.ts';
import { reconcile } from './reconcile.ts';

// The background work (top-ups, webhooks, and the shared counters' sync, which a session's
// changes count in) is kept away: its statements would be counted with the request's.
const w = useWorld({ topUpPollMs: 3_600_000, webhooks: { pollMs: 3_600_000 }, machineLimitSyncMs: 3_600_000 });

/**
 * The text of every statement either driver sent to the database while `fn` ran: one round
 * trip each. On pg, every query (named prepared or not) is submitted once to the connection.
 */
async function statements(fn: () => Promise<unknown>): Promise<string[]> {
  const submitted = vi.spyOn(pg.Query.prototype, 'submit');
  const embedded = vi.spyOn(PGlite.prototype, 'query');
  try {
    await fn();
    return [
      ...submitted.mock.contexts.map((query) => String((query as { text?: unknown }).text)),
      ...embedded.mock.calls.map(([text]) => String(text)),
    ];
  } finally {
    submitted.mockRestore();
    embedded.mockRestore();
  }
}

/**
 * What a money request sends beyond authentication: the statements that authenticated
 * GET /api/users/me also sends are authentication's (it reads the profile besides), so a
 * request's own statements are the rest.
 */
async function ownStatements(token: string, request: () => Promise<unknown>) {
  const reading = await statements(() => w.t.request('GET', '/api/users/me', undefined, { token }));
  const sent = await statements(request);
  const own = sent.filter((text) => !reading.includes(text));
  expect(sent.length - own.length).toBeLessThanOrEqual(reading.length);
  return own;
}

describe('the money paths make one round trip after authentication', () => {
  it('an allocation, its retry with the same key, a refusal and an adjustment are one statement each', async () => {
    const token = await w.as('H.admin');
    const adjust = { direction: 'increase', amount: '50.00', reason: 'Round trips' };
    const adjusting = await ownStatements(token, () => w.t.request('POST', '/api/credits/adjustments', adjust, { token }));
    expect(adjusting).toEqual([expect.stringContaining('credits_adjust(')]);

    const body = { from_org_id: w.id('H'), to_org_id: w.id('SA1'), amount: '1.25', notes: 'one trip' };
    const send = () => w.t.request('POST', '/api/credits/allocations', body, { token, headers: { 'idempotency-key': 'one-trip' } });
    let first: Awaited<ReturnType<typeof send>> | undefined;
    const allocating = await ownStatements(token, async () => (first = await send()));
    expect(first!.status).toBe(200);
    expect(allocating).toEqual([expect.stringContaining('credits_allocate(')]);

    let again: Awaited<ReturnType<typeof send>> | undefined;
    const retrying = await ownStatements(token, async () => (again = await send()));
    expect(again!.body).toEqual(first!.body);
    expect(retrying).toEqual([expect.stringContaining('credits_allocate(')]);

    const refused = await ownStatements(token, async () => {
      const response = await w.t.request('POST', '/api/credits/allocations', { ...body, amount: '99999999' }, { token });
      expect(response.status).toBe(422);
    });
    expect(refused).toEqual([expect.stringContaining('credits_allocate(')]);
    expect((await reconcile(w.t.database.db)).ok).toBe(true);
  });

  it('a batch of usage events is one statement, its audit row included', async () => {
    const token = await w.as('H.admin');
    const agent = await insertAgentType(w.t.database.db, 'round-trip', '1.0000');
    await activate(w.t.database.db, w.id('H'), agent.id);
    const events = ['rt-1', 'rt-2'].map((id) => ({
      id,
      organization_id: w.id('H'),
      agent: agent.code,
      units: '1',
      occurred_at: new Date(Date.now() - 60_000).toISOString(),
    }));
    const recording = await ownStatements(token, async () => {
      const response = await w.t.request('POST', '/api/credits/usage', { events }, { token });
      expect(response.body).toMatchObject({ accepted: 2, rejected: 0 });
    });
    expect(recording).toEqual([expect.stringContaining('usage_record(')]);
    const audit = await w.t.database.db
      .selectFrom('audit_log')
      .select(['action', 'details'])
      .where('action', '=', 'usage.imported')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit.details).toMatchObject({ events: 2, accepted: 2, duplicates: 0, rejected: 0, credits_charged: '2.00' });
  });
});
