import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it, beforeAll, vi } from 'vitest';
import { sql } from 'kysely';
import { SignJWT, UnsecuredJWT, decodeJwt } from 'jose';
import { ERROR_CODES, type OrgType, type PricingView, type Role } from '@console/domain';
import { useWorld, type ApiResponse } from '../test/harness.ts';
import { PASSWORD, insertOrg, insertUser, tablesDigest } from '../test/fixtures.ts';
import { hashToken } from '../lib/secrets.ts';
import { startDnsServer } from '../test/dns-server.ts';
import { prepareIdentityRows } from './matrix-identity.ts';
import { prepareInvoiceRows } from './matrix-invoices.ts';
import {
  MATRIX,
  MATRIX_PASSWORD,
  PUBLIC_ACCOUNT,
  RELATIONS,
  isPublic,
  prepareAgentRows,
  pricingViewAt,
  type Call,
  type CallerInfo,
  type Expectation,
  type Relation,
  type Target,
  type TargetKind,
} from './matrix-table.ts';
import type { Reveals } from './matrix-margins.ts';

/**
 * Every API route, called as every role level of every organization type against targets
 * in every relation to the caller's organization, and with no, expired, foreign-key,
 * unsigned and deactivated-user tokens. Expectations come from matrix-table.ts; a refused
 * call must answer the error shape and change nothing.
 */
// Domain checks ask a DNS server on this machine (it holds no records: a check finds nothing).
const dns = await startDnsServer();
afterAll(() => dns.close());
const w = useWorld({ dnsServers: [dns.address] });
const FLOOR = 2800;

/** The world's organizations plus three soft-deleted ones (SAx under H, Ax under SA1, Tx under A1). */
type OrgKey = 'H' | 'SA1' | 'SA2' | 'A1' | 'A2' | 'A3' | 'T1' | 'T2' | 'H2' | 'SA3' | 'SAx' | 'Ax' | 'Tx';
const TYPES: Record<OrgKey, OrgType> = {
  H: 'house',
  H2: 'house',
  SA1: 'super_agency',
  SA2: 'super_agency',
  SA3: 'super_agency',
  SAx: 'super_agency',
  A1: 'agency',
  A2: 'agency',
  A3: 'agency',
  Ax: 'agency',
  T1: 'tenant',
  T2: 'tenant',
  Tx: 'tenant',
};

const DELETED_PARENT = { SAx: 'H', Ax: 'SA1', Tx: 'A1' } as const;

/** For callers of each home organization, which organization stands in which relation. */
const RELATED: Record<'H' | 'SA1' | 'A1' | 'T1', Partial<Record<Relation, OrgKey>>> = {
  H: { own: 'H', child: 'SA1', grandchild: 'A1', 'other house': 'H2', 'other tree': 'SA3', deleted: 'SAx' },
  SA1: { own: 'SA1', child: 'A1', grandchild: 'T1', parent: 'H', sibling: 'SA2', 'other house': 'H2', 'other tree': 'SA3', deleted: 'Ax' },
  A1: { own: 'A1', child: 'T1', parent: 'SA1', sibling: 'A2', 'other house': 'H2', 'other tree': 'SA3', deleted: 'Tx' },
  T1: { own: 'T1', parent: 'A1', sibling: 'T2', 'other house': 'H2', 'other tree': 'SA3', deleted: 'Tx' },
};

interface Caller extends CallerInfo {
  who: string;
  home: keyof typeof RELATED;
  userId: string;
  token: string;
}

const orgs = {} as Record<OrgKey, string>;
/** A plain user (`<type>_user`) and a pending invitation in every organization: the targets. */
const targetUsers = {} as Record<OrgKey, string>;
const invitations = {} as Record<OrgKey, string>;
const callers: Caller[] = [];
/** Bearers that must get 401 from every authenticated route, with the code naming why. */
const badTokens: Record<string, { token: string | undefined; code: string }> = {};

const db = () => w.t.database.db;

async function setUp() {
  Object.assign(orgs, Object.fromEntries(Object.entries(w.world.orgs).map(([key, org]) => [key, org.id])));
  for (const [key, parent] of Object.entries(DELETED_PARENT) as [OrgKey, OrgKey][]) {
    orgs[key] = (await insertOrg(db(), { name: `Deleted ${key}`, type: TYPES[key], parentId: orgs[parent] })).id;
  }
  for (const [key, orgId] of Object.entries(orgs) as [OrgKey, string][]) {
    const role = `${TYPES[key]}_user`;
    targetUsers[key] = (
      await insertUser(db(), { email: `target@${key.toLowerCase()}.test`, password: PASSWORD, role, organizationId: orgId })
    ).id;
    const invitation = await db()
      .insertInto('invitations')
      .values({
        token_hash: hashToken(randomBytes(32).toString('base64url')),
        email: `pending@${key.toLowerCase()}.test`,
        first_name: 'Pending',
        last_name: 'Invitee',
        role,
        organization_id: orgId,
        expires_at: new Date(Date.now() + 7 * 86_400_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    invitations[key] = invitation.id;
  }
  // As a real deletion leaves them: no active users (remove() refuses those), pending invitations kept.
  const deleted = [orgs.SAx, orgs.Ax, orgs.Tx];
  await db().updateTable('users').set({ status: 'inactive' }).where('organization_id', 'in', deleted).execute();
  await db().updateTable('organizations').set({ deleted_at: sql`now()` }).where('id', 'in', deleted).execute();
  await prepareAgentRows(db(), Object.values(orgs));
  await prepareIdentityRows(db(), Object.values(orgs));
  await prepareInvoiceRows(db(), Object.values(orgs));
  // Credits to allocate from, so an allowed allocation succeeds.
  await db()
    .updateTable('organization_billing_settings')
    .set({ credit_balance: '1000.00' })
    .where('organization_id', 'in', [orgs.H, orgs.SA1, orgs.A1])
    .execute();

  for (const who of Object.keys(w.world.users)) {
    const [home, level] = who.split('.') as [Caller['home'], string];
    const role = `${TYPES[home]}_${level}` as Role;
    const email = w.world.users[who]!;
    const user = await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    const childKey = RELATED[home].child;
    callers.push({
      who,
      home,
      role,
      userId: user.id,
      token: await w.as(who),
      orgType: TYPES[home],
      orgId: orgs[home],
      childId: childKey ? orgs[childKey] : null,
    });
  }

  await insertUser(db(), { email: PUBLIC_ACCOUNT, password: MATRIX_PASSWORD, role: 'house_user', organizationId: orgs.H });
  // An expired token the server itself signed: issued an hour ago, for a live session.
  await insertUser(db(), { email: 'late@h.test', password: PASSWORD, role: 'house_admin', organizationId: orgs.H });
  const clock = vi.spyOn(Date, 'now').mockReturnValue(Date.now() - 3_600_000);
  try {
    badTokens.expired = { token: await w.as('late@h.test'), code: 'token_expired' };
  } finally {
    clock.mockRestore();
  }
  // A house admin deactivated (through the API) after signing in.
  const gone = await insertUser(db(), { email: 'gone@h.test', password: PASSWORD, role: 'house_admin', organizationId: orgs.H });
  badTokens.deactivated = { token: await w.as('gone@h.test'), code: 'account_inactive' };
  const deactivation = await w.t.request('DELETE', `/api/users/${gone.id}`, undefined, { token: await w.as('H.admin') });
  expect(deactivation.status).toBe(200);
  // House admin's real claims (live session), signed with another key, or not signed at all.
  const claims = decodeJwt(await w.as('H.admin'));
  const otherKey = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(randomBytes(32));
  badTokens['other key'] = { token: otherKey, code: 'invalid_token' };
  badTokens['alg none'] = { token: new UnsecuredJWT(claims).encode(), code: 'invalid_token' };
  badTokens['no token'] = { token: undefined, code: ERROR_CODES.unauthorized };
}

/** What a route may change, read cheaply; append-only tables by their last row. */
async function fingerprint(): Promise<string> {
  const whole = await tablesDigest(db(), [
    'organizations',
    'organization_billing_settings',
    'users',
    'invitations',
    'refresh_sessions',
    'idempotency_keys',
    'one_time_tokens',
  ]);
  const { rows } = await sql<{ f: string }>`
    select concat_ws('/',
      (select count(*) || ':' || coalesce(max(seq), 0) from credit_ledger_entries),
      (select coalesce(max(id), 0) from audit_log),
      (select coalesce(max(id), 0) from outbox)) as f`.execute(db());
  return `${whole}/${rows[0]!.f}`;
}

interface Case {
  label: string;
  method: string;
  call: Call;
  token: string | undefined;
  expectation: Expectation | { exact: number };
  /** The error code a refusal must carry, when the reason is known (bad bearers). */
  code?: string;
  /** For a read of a target: what its answer may show of the target's prices and margins (the margins rule). */
  pricing?: { reveals: Reveals; view: PricingView; targetId: string };
}

function targetOf(kind: TargetKind, relation: Relation, caller: Caller): Target | null {
  if (relation === 'self') return kind === 'user' ? { id: caller.userId, orgType: caller.orgType } : null;
  const key = RELATED[caller.home][relation];
  if (!key) return null;
  const id = kind === 'org' ? orgs[key] : kind === 'user' ? targetUsers[key] : invitations[key];
  return { id, orgType: TYPES[key] };
}

/** The cases of each route, reads first so allowed changes come after the reads they could disturb. */
function buildCases(): { key: string; cases: Case[] }[] {
  let n = 0;
  const unique = () => `${++n}-${randomBytes(3).toString('hex')}`;
  const order = (key: string) => (key.startsWith('GET ') ? 0 : key.startsWith('DELETE ') ? 2 : 1);
  const keys = Object.keys(MATRIX).sort((a, b) => order(a) - order(b));
  const houseAdmin = callers.find((c) => c.who === 'H.admin')!;
  return keys.map((key) => {
    const entry = MATRIX[key]!;
    const [method, url] = key.split(' ') as [string, string];
    const cases: Case[] = [];
    if (isPublic(entry)) {
      for (const [name, { token }] of Object.entries(badTokens)) {
        cases.push({ label: `${name} ${key}`, method, token, call: entry.call(url, unique()), expectation: { exact: entry.publicStatus } });
      }
      return { key, cases };
    }
    for (const variant of entry.variants) {
      const relations = variant.target ? (variant.relations ?? RELATIONS) : [null];
      const label = (who: string, relation: Relation | null) =>
        `${who} ${key}${variant.name ? ` (${variant.name})` : ''}${relation ? ` [${relation}]` : ''}`;
      const make = (caller: Caller, relation: Relation | null) => {
        const target = variant.target && relation ? targetOf(variant.target, relation, caller) : null;
        if (variant.target && !target) return null;
        return variant.call({ url: target ? url.replace(':id', target.id) : url, target, caller, unique: unique() });
      };
      // Bad bearers, carrying the house admin's request for its direct child.
      for (const [name, { token, code }] of Object.entries(badTokens)) {
        const call = make(houseAdmin, variant.target ? 'child' : null)!;
        cases.push({ label: label(name, null), method, token, call, code, expectation: { allowed: false, statuses: [401] } });
      }
      for (const caller of callers) {
        for (const relation of relations) {
          const call = make(caller, relation);
          const target = variant.target && relation ? targetOf(variant.target, relation, caller) : null;
          if (call)
            cases.push({
              label: label(caller.who, relation),
              method,
              token: caller.token,
              call,
              expectation: variant.expect(caller, relation),
              ...(variant.reveals &&
                relation &&
                target && { pricing: { reveals: variant.reveals, view: pricingViewAt(caller, relation), targetId: target.id } }),
            });
        }
      }
    }
    return { key, cases };
  });
}

async function inBatches<T, R>(items: T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) results.push(...(await Promise.all(items.slice(i, i + size).map(run))));
  return results;
}

describe('authorization matrix', () => {
  beforeAll(setUp);

  it('names every API route, and only routes that exist', () => {
    const routes = w.t.app.routeTable.map((r) => `${r.method} ${r.url}`);
    expect(
      routes.filter((key) => !(key in MATRIX)),
      'routes without an expectation',
    ).toEqual([]);
    expect(
      Object.keys(MATRIX).filter((key) => !routes.includes(key)),
      'expectations without a route',
    ).toEqual([]);
  });

  it('answers every call as the table says, and a refused call changes nothing', async () => {
    const failures: string[] = [];
    let total = 0;
    let deniedCount = 0;
    let leaks = 0;
    let pricingChecks = 0;
    const send = (c: Case) => w.t.request(c.method, c.call.path, c.call.body, { token: c.token, headers: c.call.headers });

    function judge(c: Case, { status, body }: ApiResponse, changed: boolean) {
      total++;
      const got = `${status} ${JSON.stringify(body).slice(0, 160)}`;
      const isDenied = 'exact' in c.expectation ? c.expectation.exact >= 400 : !c.expectation.allowed;
      if (status >= 500) failures.push(`${c.label}: server error ${got}`);
      else if ('exact' in c.expectation) {
        if (status !== c.expectation.exact) failures.push(`${c.label}: expected ${c.expectation.exact}, got ${got}`);
      } else if (c.expectation.allowed) {
        // Past authorization only a success or a rule of the domain may answer (409, 422), never a malformed call.
        if (status >= 300 && status !== 409 && status !== 422) failures.push(`${c.label}: expected allowed, got ${got}`);
        // A read shows of its target's prices and margins what the margins rule allows: more is a leak.
        if (c.pricing && status === 200) {
          pricingChecks++;
          for (const [key, shown] of Object.entries(c.pricing.reveals.of(body, c.pricing.targetId))) {
            const allowed = c.pricing.view[key as keyof PricingView];
            if (shown && !allowed) {
              leaks++;
              failures.push(`${c.label}: shows the ${key} the margins rule withholds`);
            } else if (!shown && allowed && c.pricing.reveals.exact)
              failures.push(`${c.label}: withholds the ${key} the margins rule shows`);
          }
        }
      } else if (!c.expectation.statuses.includes(status)) {
        if (status < 400) leaks++;
        failures.push(`${c.label}: expected ${c.expectation.statuses.join('|')}, got ${got}`);
      }
      if (!isDenied) return;
      deniedCount++;
      if (typeof body?.error?.code !== 'string' || typeof body?.error?.message !== 'string')
        failures.push(`${c.label}: not the error shape: ${got}`);
      else if (c.code && body.error.code !== c.code) failures.push(`${c.label}: expected code ${c.code}, got ${got}`);
      if (changed) {
        leaks++;
        failures.push(`${c.label}: a refused call changed data`);
      }
    }

    for (const { key, cases } of buildCases()) {
      if (key.startsWith('GET ')) {
        // Reads run a few at a time; what they could change is compared once per route.
        const before = await fingerprint();
        const responses = await inBatches(cases, 4, send);
        cases.forEach((c, i) => judge(c, responses[i]!, false));
        if ((await fingerprint()) !== before) {
          leaks++;
          failures.push(`${key}: reading changed data`);
        }
        continue;
      }
      let last = await fingerprint();
      for (const c of cases) {
        const response = await send(c);
        const now = await fingerprint();
        judge(c, response, now !== last);
        last = now;
      }
    }
    console.log(
      `authorization matrix: ${total} cases, ${deniedCount} denied, ${total - deniedCount} allowed (${pricingChecks} reads checked for prices and margins), ${leaks} leaks`,
    );
    expect(failures).toEqual([]);
    expect(total).toBeGreaterThan(FLOOR);
    // A guard against a hang, not a speed check: every call of the table runs in turn, and on a
    // busy 2-core machine (a CI run beside other test runs) it took 196 s.
  }, 480_000);
});
