/**
 * Races on the unique values around invitations, through real HTTP: one pending
 * invitation per e-mail and organization, one account per e-mail. Exactly one request
 * wins, every other one is refused with 409 and the reason, and none answers 5xx.
 *
 * On PostgreSQL the requests run truly concurrently (a pool of ten connections). PGlite
 * runs one statement at a time, so there these tests only check the arithmetic.
 */
import { describe, expect, inject, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES } from '@console/domain';
import { useWorld } from '../test/harness.ts';
import type { ApiResponse } from '../test/harness.ts';

const w = useWorld();
const db = () => w.t.database.db;
const onPostgres = Boolean(inject('pgServerUrl'));

const person = (email: string, role: string, organization_id: string) => ({
  email,
  first_name: 'Rae',
  last_name: 'Racer',
  role,
  organization_id,
});

function statuses(answers: ApiResponse[]) {
  for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(500);
  return answers.map((a) => a.status).sort();
}

async function mailedToken(email: string, organizationName: string) {
  const row = await db()
    .selectFrom('outbox')
    .select('link')
    .where('to_address', '=', email)
    .where('subject', 'like', `%${organizationName}`)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return new URL(row.link!).searchParams.get('token')!;
}

describe(`unique-value races on invitations (${onPostgres ? 'PostgreSQL: truly concurrent' : 'PGlite: serialized, arithmetic only'})`, () => {
  it('ten identical invitations at once: one 201, nine 409 with the pending message, one row', async () => {
    const token = await w.as('A1.admin');
    for (const round of [1, 2, 3]) {
      const email = `same-${round}@race.test`;
      const body = person(email, 'agency_user', w.id('A1'));
      const answers = await Promise.all(Array.from({ length: 10 }, () => w.t.request('POST', '/api/invitations', body, { token })));
      expect(statuses(answers)).toEqual([201, ...Array(9).fill(409)]);
      for (const refused of answers.filter((a) => a.status === 409)) {
        expect(refused.body.error).toMatchObject({ code: 'conflict', message: MESSAGES.invitations.alreadyPending });
      }
      const rows = await db().selectFrom('invitations').select(['id', 'status']).where('email', '=', email).execute();
      expect(rows).toEqual([{ id: answers.find((a) => a.status === 201)!.body.invitation.id, status: 'pending' }]);
    }
  });

  it('one e-mail registering into four organizations at once: one account, three 409', async () => {
    const admin = await w.as('A1.admin');
    const organizations = [
      { id: w.id('A1'), name: 'Agency One', role: 'agency_user' },
      { id: w.id('T1'), name: 'Tenant One', role: 'tenant_user' },
      { id: w.id('T2'), name: 'Tenant Two', role: 'tenant_user' },
    ];
    const sa1 = await w.as('SA1.admin');
    for (const round of [1, 2, 3]) {
      const email = `twice-${round}@race.test`;
      for (const org of organizations) {
        expect((await w.t.request('POST', '/api/invitations', person(email, org.role, org.id), { token: admin })).status).toBe(201);
      }
      expect((await w.t.request('POST', '/api/invitations', person(email, 'agency_user', w.id('A2')), { token: sa1 })).status).toBe(201);
      const tokens = await Promise.all([...organizations.map((o) => o.name), 'Agency Two'].map((name) => mailedToken(email, name)));

      const answers = await Promise.all(
        tokens.map((token) => w.t.request('POST', '/api/invitations/register', { token, password: 'a-good-password' })),
      );
      expect(statuses(answers)).toEqual([200, 409, 409, 409]);
      for (const refused of answers.filter((a) => a.status === 409)) {
        expect(refused.body.error).toMatchObject({ code: 'invitation_superseded', message: MESSAGES.invitations.superseded });
      }
      const winner = answers.find((a) => a.status === 200)!.body.user;
      const accounts = await db().selectFrom('users').select(['id', 'organization_id']).where(sql`lower(email)`, '=', email).execute();
      expect(accounts).toEqual([{ id: winner.id, organization_id: winner.organization_id }]);
      // The winner's invitation is accepted; every other one was superseded by it.
      const invitations = await db()
        .selectFrom('invitations')
        .select(['status', 'superseded_by', 'accepted_user_id'])
        .where('email', '=', email)
        .execute();
      expect(invitations.filter((i) => i.status === 'accepted')).toHaveLength(1);
      const accepted = await db()
        .selectFrom('invitations')
        .select('id')
        .where('email', '=', email)
        .where('status', '=', 'accepted')
        .executeTakeFirstOrThrow();
      expect(invitations.filter((i) => i.status === 'revoked' && i.superseded_by === accepted.id)).toHaveLength(3);
    }
  });

  it('different e-mails register at once without refusing each other', async () => {
    const admin = await w.as('A1.admin');
    const emails = Array.from({ length: 6 }, (_, i) => `apart-${i}@race.test`);
    for (const email of emails) await w.t.request('POST', '/api/invitations', person(email, 'agency_user', w.id('A1')), { token: admin });
    const tokens = await Promise.all(emails.map((email) => mailedToken(email, 'Agency One')));
    const answers = await Promise.all(
      tokens.map((token) => w.t.request('POST', '/api/invitations/register', { token, password: 'a-good-password' })),
    );
    expect(statuses(answers)).toEqual(Array(6).fill(200));
  });
});
