import { beforeAll, describe, expect, inject, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES } from '@console/domain';
import { useWorld, type ApiResponse } from '../test/harness.ts';

/**
 * The activated agent limit under concurrent requests, through real HTTP. On PostgreSQL the
 * requests of a round run truly concurrently (a pool of ten connections), so these are the
 * proofs; PGlite runs one statement at a time, so there they only check the arithmetic.
 */
const onPostgres = Boolean(inject('pgServerUrl'));
const mode = onPostgres ? 'PostgreSQL: truly concurrent' : 'PGlite: serialized, arithmetic only';
const w = useWorld();
const db = () => w.t.database.db;

const TYPES = 12;
const typeIds: string[] = [];

async function liveCount(orgId: string): Promise<number> {
  const row = await db()
    .selectFrom('agent_activations')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('organization_id', '=', orgId)
    .where('deactivated_at', 'is', null)
    .executeTakeFirstOrThrow();
  return row.n;
}

async function limitOf(orgId: string): Promise<number> {
  const row = await db()
    .selectFrom('organization_billing_settings')
    .select('activated_agent_limit')
    .where('organization_id', '=', orgId)
    .executeTakeFirstOrThrow();
  return row.activated_agent_limit;
}

const describeAnswer = (r: ApiResponse) => `${r.status} ${JSON.stringify(r.body).slice(0, 200)}`;

beforeAll(async () => {
  const house = await w.as('H.admin');
  for (let i = 0; i < TYPES; i++) {
    const created = await w.t.request(
      'POST',
      '/api/agent-types',
      { code: `race-${i}`, name: `Race ${i}`, kind: 'automation', unit: 'run', price: '0.01' },
      { token: house },
    );
    expect(created.status).toBe(201);
    typeIds.push(created.body.agent_type.id);
  }
  // Capacity for the limits below: the house's limit is its own admins' to set, then shared down.
  expect(
    (await w.t.request('PUT', `/api/organizations/${w.id('H')}/agent-limit`, { activated_agent_limit: 1000 }, { token: house })).status,
  ).toBe(200);
  expect(
    (await w.t.request('PUT', `/api/organizations/${w.id('SA1')}/agent-limit`, { activated_agent_limit: 500 }, { token: house })).status,
  ).toBe(200);
});

describe(`activations against the limit (${mode})`, () => {
  it('many activations sent together never exceed a small limit: exactly the limit succeed, the rest 422 "used / limit", no 5xx', async () => {
    const token = await w.as('SA1.admin');
    const org = w.id('A2');
    const rounds = onPostgres ? 6 : 2;
    for (let round = 0; round < rounds; round++) {
      const limit = 1 + (round % 4);
      expect((await w.t.request('PUT', `/api/organizations/${org}/agent-limit`, { activated_agent_limit: limit }, { token })).status).toBe(
        200,
      );
      const answers = await Promise.all(
        typeIds.map((typeId) => w.t.request('POST', `/api/organizations/${org}/agents`, { agent_type_id: typeId }, { token })),
      );
      const created = answers.filter((r) => r.status === 201);
      const refused = answers.filter((r) => r.status === 422);
      expect(answers.filter((r) => r.status !== 201 && r.status !== 422).map(describeAnswer), `round ${round}`).toEqual([]);
      expect(created).toHaveLength(limit);
      for (const r of refused) {
        expect(r.body.error).toEqual({ code: 'agent_limit_reached', message: MESSAGES.agents.limitReached(limit, limit) });
      }
      expect(await liveCount(org)).toBe(limit);
      // Clear the round: deactivate everything, sent together too.
      const cleared = await Promise.all(
        created.map((r) => w.t.request('DELETE', `/api/organizations/${org}/agents/${r.body.activation.id}`, undefined, { token })),
      );
      expect(cleared.map((r) => r.status)).toEqual(created.map(() => 200));
      expect(await liveCount(org)).toBe(0);
    }
  }, 120_000);

  it('activations and limit changes sent together never leave more live activations than the limit: no 5xx, no deadlock', async () => {
    const org = w.id('A1');
    const ownAdmin = await w.as('A1.admin');
    const parentAdmin = await w.as('SA1.admin');
    const rounds = onPostgres ? 10 : 3;
    const failures: string[] = [];
    const tally = { activated: 0, refusedAtLimit: 0, limitSet: 0, limitRefused: 0 };
    for (let round = 0; round < rounds; round++) {
      expect(
        (await w.t.request('PUT', `/api/organizations/${org}/agent-limit`, { activated_agent_limit: 6 }, { token: parentAdmin })).status,
      ).toBe(200);
      const activations = typeIds.map(
        (typeId) => () => w.t.request('POST', `/api/organizations/${org}/agents`, { agent_type_id: typeId }, { token: ownAdmin }),
      );
      const limits = [2, 5, 1, 4, 3, 0].map(
        (limit) => () =>
          w.t.request('PUT', `/api/organizations/${org}/agent-limit`, { activated_agent_limit: limit }, { token: parentAdmin }),
      );
      // Interleave the two kinds, starting with either, so both orders meet.
      const calls = activations.flatMap((activate, i) =>
        i < limits.length ? (round % 2 ? [limits[i]!, activate] : [activate, limits[i]!]) : [activate],
      );
      const answers = await Promise.all(calls.map((call) => call()));
      for (const r of answers) {
        const isActivation = r.body?.activation !== undefined || r.body?.error?.code === 'agent_limit_reached';
        if (r.status >= 500 || r.status === 409) failures.push(`round ${round}: ${describeAnswer(r)}`);
        else if (r.status === 201) tally.activated++;
        else if (r.status === 200) tally.limitSet++;
        else if (r.status === 422 && isActivation) tally.refusedAtLimit++;
        else if (r.status === 422 && r.body.error.code === 'below_active_agents') tally.limitRefused++;
        else failures.push(`round ${round}: unexpected ${describeAnswer(r)}`);
      }
      const [count, limit] = await Promise.all([liveCount(org), limitOf(org)]);
      if (count > limit) failures.push(`round ${round}: ${count} live activations over a limit of ${limit}`);
      // Back to none for the next round.
      await db()
        .updateTable('agent_activations')
        .set({ deactivated_at: sql`now()` })
        .where('organization_id', '=', org)
        .where('deactivated_at', 'is', null)
        .execute();
    }
    console.log(
      `activations vs limit changes (${mode}): ${rounds} rounds, ${tally.activated} activated, ${tally.refusedAtLimit} refused at the limit, ${tally.limitSet} limits set, ${tally.limitRefused} limits refused below the active count`,
    );
    expect(failures).toEqual([]);
    expect(tally.activated).toBeGreaterThan(0);
    expect(tally.limitSet).toBeGreaterThan(0);
  }, 180_000);
});
