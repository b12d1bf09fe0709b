import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES, WEBHOOK_EVENT_DATA, WEBHOOKS, webhookPayloadSchema } from '@console/domain';
import { PASSWORD, insertUser } from '../../test/fixtures.ts';
import { useWorld } from '../../test/harness.ts';
import { activate, fund, insertAgentType, insertApiKey } from '../../test/usage-rows.ts';
import { startReceiver, until, type Receiver } from '../../../../../support/webhook-receiver.ts';
import { allowedHosts } from './address.ts';
import { createWebhookDispatcher } from './dispatcher.ts';
import { createSender } from './send.ts';
import { secretSealer } from '../../lib/sealer.ts';

const w = useWorld({
  webhooks: { pollMs: 30, retrySchedule: [0.05, 0.05, 0.05], timeoutMs: 2_000, leaseMs: 5_000, timeoutPauseSeconds: [0.05] },
});
const db = () => w.t.database.db;
const m = MESSAGES.webhooks;
const as = async (who: string, method: string, path: string, body?: unknown) => w.t.request(method, path, body, { token: await w.as(who) });
const hooks = (org: string) => `/api/organizations/${org}/webhooks`;

let receiver: Receiver;
let agent: { id: string; code: string };

beforeAll(async () => {
  receiver = await startReceiver();
  agent = await insertAgentType(db(), 'hooked', '1.0000');
  // The sibling agency's admin: the world has people in H, SA1, A1 and T1 only.
  await insertUser(db(), { email: 'admin@a2.test', password: PASSWORD, role: 'agency_admin', organizationId: w.id('A2') });
  w.world.users['A2.admin'] = 'admin@a2.test';
});
afterAll(async () => {
  await receiver.close();
});

async function register(who: string, org: string, body: Record<string, unknown>) {
  const made = await as(who, 'POST', hooks(org), { url: receiver.url(), ...body });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body as { endpoint: { id: string }; secret: string };
}

/** Every payload received parses with its type's documented schema. */
function expectDocumented(json: any) {
  const parsed = webhookPayloadSchema(json.type as keyof typeof WEBHOOK_EVENT_DATA).safeParse(json);
  expect(parsed.success, `${json.type}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
}

describe('registering endpoints', () => {
  it('answers the secret once, never again, and audits without it', async () => {
    const made = await register('A1.admin', w.id('A1'), { event_types: ['balance.low'], description: 'ops' });
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const list = await as('A1.admin', 'GET', hooks(w.id('A1')));
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(made.secret.slice(6));
    expect(list.body.endpoints.map((e: { id: string }) => e.id)).toContain(made.endpoint.id);
    const audit = await db().selectFrom('audit_log').select('details').where('target_id', '=', made.endpoint.id).execute();
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain(made.secret.slice(6));
    const stored = await db()
      .selectFrom('webhook_endpoints')
      .select('secret_encrypted')
      .where('id', '=', made.endpoint.id)
      .executeTakeFirstOrThrow();
    expect(stored.secret_encrypted).not.toContain(made.secret.slice(6));
    await as('A1.admin', 'DELETE', `${hooks(w.id('A1'))}/${made.endpoint.id}`);
  });

  it.each([
    ['not a URL', 'hooks', 400],
    ['not http', 'ftp://example.com/x', 400],
    ['too long', `https://example.com/${'a'.repeat(WEBHOOKS.urlMaxLength)}`, 400],
    ['with credentials', 'https://user:pw@example.com/x', 400],
    ['a private address', 'https://10.1.2.3/hooks', 422],
    ['the metadata address', 'https://169.254.169.254/latest', 422],
    ['an IPv6 loopback', 'https://[::1]/x', 422],
    ['a mapped private address', 'https://[::ffff:192.168.0.1]/x', 422],
    ['plain http to a public address', 'http://93.184.216.34/x', 422],
  ])('refuses %s naming the url field, and stores nothing', async (_what, url, status) => {
    const before = await db().selectFrom('webhook_endpoints').select(sql<number>`count(*)::integer`.as('n')).executeTakeFirstOrThrow();
    const answer = await as('A1.admin', 'POST', hooks(w.id('A1')), { url, event_types: ['balance.low'] });
    expect(answer.status).toBe(status);
    expect(answer.body.error.fields?.url).toBeTruthy();
    const after = await db().selectFrom('webhook_endpoints').select(sql<number>`count(*)::integer`.as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('refuses the wrong role, another organization, a subtree for a tenant, and a suspended organization', async () => {
    const body = { url: receiver.url(), event_types: ['balance.low'] };
    expect((await as('A1.user', 'POST', hooks(w.id('A1')), body)).status).toBe(403);
    expect((await as('A1.manager', 'GET', hooks(w.id('A1')))).status).toBe(403);
    expect((await as('A2.admin', 'POST', hooks(w.id('A1')), body)).status).toBe(404);
    expect((await as('SA1.admin', 'POST', hooks(w.id('A1')), body)).status).toBe(403);
    expect((await as('SA1.admin', 'GET', hooks(w.id('A1')))).status).toBe(403);
    const tenant = await as('T1.admin', 'POST', hooks(w.id('T1')), { ...body, include_subtree: true });
    expect(tenant.status).toBe(422);
    expect(tenant.body.error.message).toBe(m.subtreeOnlyParents);
    await db().updateTable('organizations').set({ status: 'suspended' }).where('id', '=', w.id('A2')).execute();
    try {
      expect((await as('A2.admin', 'POST', hooks(w.id('A2')), body)).status).toBe(403);
    } finally {
      await db().updateTable('organizations').set({ status: 'active' }).where('id', '=', w.id('A2')).execute();
    }
  });

  it(`holds an organization to ${WEBHOOKS.maxEndpointsPerOrganization} endpoints`, async () => {
    const made: string[] = [];
    for (let i = 0; i < WEBHOOKS.maxEndpointsPerOrganization; i++)
      made.push((await register('A2.admin', w.id('A2'), { event_types: ['balance.low'] })).endpoint.id);
    const over = await as('A2.admin', 'POST', hooks(w.id('A2')), { url: receiver.url(), event_types: ['balance.low'] });
    expect(over.status).toBe(422);
    expect(over.body.error.message).toBe(m.tooMany(WEBHOOKS.maxEndpointsPerOrganization));
    for (const id of made) expect((await as('A2.admin', 'DELETE', `${hooks(w.id('A2'))}/${id}`)).status).toBe(200);
  });
});

describe('delivering', () => {
  it("sends an agency's subtree endpoint a verified balance.low naming the tenant, with its path", async () => {
    const made = await register('A1.admin', w.id('A1'), {
      event_types: ['balance.low', 'credits.adjusted', 'usage.refused'],
      include_subtree: true,
    });
    const own = await register('A1.admin', w.id('A1'), { event_types: ['balance.low'], include_subtree: false, url: receiver.url('/own') });
    const sibling = await register('A2.admin', w.id('A2'), {
      event_types: ['balance.low'],
      include_subtree: true,
      url: receiver.url('/sibling'),
    });
    receiver.trust(made.secret);
    await fund(db(), w.id('T1'), '150.00');
    await activate(db(), w.id('T1'), agent.id);
    const key = await insertApiKey(db(), w.id('T1'));
    const report = await w.t.request(
      'POST',
      '/api/v1/usage-events',
      { events: [{ id: 'low-1', organization_id: w.id('T1'), agent: agent.code, units: '60', occurred_at: new Date().toISOString() }] },
      { headers: { authorization: `Bearer ${key.key}` } },
    );
    expect(report.status).toBe(200);
    await until(() => receiver.of('balance.low').length > 0, 'balance.low');
    const low = receiver.of('balance.low')[0]!;
    expect(low.verified).toBe(true);
    expect(low.json.organization).toMatchObject({ id: w.id('T1'), name: 'Tenant One', org_type: 'tenant' });
    expect(low.json.organization.path.map((o: { name: string }) => o.name)).toEqual(['Agency One', 'Tenant One']);
    expect(low.json.data).toEqual({ balance: '90.00', threshold: '100.00' });
    expect(low.headers['webhook-id']).toBe(low.json.id);
    expectDocumented(low.json);
    // The agency's own-only endpoint and the sibling agency's subtree endpoint hear nothing of T1.
    expect(receiver.received.filter((r) => r.json?.type === 'balance.low' && r.headers.host && r.body.includes(w.id('T1')))).toHaveLength(
      1,
    );
    const log = await as('A1.admin', 'GET', `${hooks(w.id('A1'))}/${made.endpoint.id}/deliveries`);
    expect(log.body.deliveries.find((d: any) => d.event.type === 'balance.low')).toMatchObject({
      state: 'delivered',
      attempts: 1,
      event: { organization: { name: 'Tenant One' } },
    });
    const ownLog = await as('A1.admin', 'GET', `${hooks(w.id('A1'))}/${own.endpoint.id}/deliveries`);
    expect(ownLog.body.deliveries).toHaveLength(0);
    const siblingLog = await as('A2.admin', 'GET', `${hooks(w.id('A2'))}/${sibling.endpoint.id}/deliveries`);
    expect(siblingLog.body.deliveries).toHaveLength(0);
    // A refused batch raises one usage.refused per organization and reason in the period.
    for (const id of ['r-1', 'r-2'])
      await w.t.request(
        'POST',
        '/api/v1/usage-events',
        { events: [{ id, organization_id: w.id('T1'), agent: 'nope', units: '1', occurred_at: new Date().toISOString() }] },
        { headers: { authorization: `Bearer ${key.key}` } },
      );
    await until(() => receiver.of('usage.refused').length > 0, 'usage.refused');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.of('usage.refused')).toHaveLength(1);
    expect(receiver.of('usage.refused')[0]!.json.data).toMatchObject({ reason: 'unknown_agent', events: 1 });
    expectDocumented(receiver.of('usage.refused')[0]!.json);
    for (const [org, id] of [
      ['A1', made.endpoint.id],
      ['A1', own.endpoint.id],
      ['A2', sibling.endpoint.id],
    ] as const)
      await as(`${org}.admin`, 'DELETE', `${hooks(w.id(org))}/${id}`);
  });

  it('sends a burst of several batches once each, with a second dispatcher sharing the queue, and records every attempt', async () => {
    const made = await register('A1.admin', w.id('A1'), { event_types: ['credits.adjusted'], url: receiver.url('/burst') });
    receiver.trust(made.secret);
    // The receiver answers after a moment, so attempts that overlap show, and the most in flight at once.
    let inFlight = 0;
    let most = 0;
    receiver.answer((request, response) => {
      if (request.url !== '/burst') return response.end('ok');
      most = Math.max(most, ++inFlight);
      setTimeout(() => {
        inFlight--;
        response.end('ok');
      }, 3);
    });
    // Another process's dispatcher on the same database, with small leases: the two take turns at the queue.
    const second = createWebhookDispatcher({
      db: db(),
      logger: w.t.app.log,
      mailer: { kind: 'outbox', send: async () => {} },
      sender: createSender({ allowed: allowedHosts(['127.0.0.1']), timeoutMs: 2_000 }),
      sealer: secretSealer(w.t.jwtSecret),
      pollMs: 20,
      batchSize: 10,
      concurrency: 4,
      leaseMs: 5_000,
      timeoutPauseSeconds: [0.05],
    });
    const burst = 330;
    try {
      await sql`insert into webhook_events (type, organization_id, data)
        select 'credits.adjusted', ${w.id('A1')}::uuid, jsonb_build_object('amount', '-1.00', 'balance_after', '1.00', 'notes', 'burst ' || n)
        from generate_series(1, ${burst}::integer) n`.execute(db());
      const deliveries = () =>
        db()
          .selectFrom('webhook_deliveries as d')
          .where('d.endpoint_id', '=', made.endpoint.id)
          .select([
            'd.event_id',
            'd.state',
            'd.attempts',
            sql<number>`(select count(*) from webhook_attempts a where a.delivery_id = d.id)::integer`.as('recorded'),
            sql<number>`(select count(*) from webhook_attempts a where a.delivery_id = d.id and a.error like 'No answer within%')::integer`.as(
              'timeouts',
            ),
          ])
          .execute();
      await until(async () => (await deliveries()).every((d) => d.state !== 'pending'), 'the burst sent', 60_000);
      const rows = await deliveries();
      expect(rows).toHaveLength(burst);
      // Delivered, each one; a delivery given up had only timeouts (a machine so busy that the test's 2 s passed four times).
      expect(rows.filter((d) => d.state !== 'delivered' && d.timeouts !== d.attempts)).toEqual([]);
      const got = receiver.received.filter((r) => r.headers['webhook-id'] && r.json?.data?.notes?.startsWith('burst '));
      expect(new Set(got.map((r) => r.id)).size).toBe(burst);
      expect(got.every((r) => r.verified)).toBe(true);
      // Every post the receiver got is an attempt recorded, and counted: none went out without its
      // delivery's lease, none was lost. A post is repeated only after a failed attempt (here, when
      // a busy machine lets the test's 2 s timeout pass).
      const posts = new Map<string, number>();
      for (const r of got) posts.set(r.id, (posts.get(r.id) ?? 0) + 1);
      expect(rows.filter((d) => d.recorded !== d.attempts || posts.get(d.event_id) !== d.attempts)).toEqual([]);
      // Never more than the endpoint's room at once, whichever dispatcher attempts (32 and 4 in flight at most in each).
      expect(most).toBeGreaterThan(0);
      expect(most).toBeLessThanOrEqual(WEBHOOKS.inFlightPerEndpoint);
    } finally {
      await second.close();
      receiver.answer((_request, response) => response.end('ok'));
      await as('A1.admin', 'DELETE', `${hooks(w.id('A1'))}/${made.endpoint.id}`);
    }
  }, 90_000);

  it('writes no event for a change that rolled back', async () => {
    const before = await db().selectFrom('webhook_events').select(sql<number>`count(*)::integer`.as('n')).executeTakeFirstOrThrow();
    const refused = await as('A1.admin', 'POST', '/api/credits/allocations', {
      from_org_id: w.id('A1'),
      to_org_id: w.id('T2'),
      amount: '999999.00',
    });
    expect(refused.status).toBe(422);
    const after = await db().selectFrom('webhook_events').select(sql<number>`count(*)::integer`.as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('retries a failing receiver with back-off until it answers 2xx, recording every attempt', async () => {
    const made = await register('A1.admin', w.id('A1'), { event_types: ['credits.allocated'], url: receiver.url('/flaky') });
    receiver.trust(made.secret);
    let calls = 0;
    receiver.answer((request, response) => {
      if (request.url === '/flaky' && ++calls <= 2) {
        response.statusCode = 500;
        return response.end('boom');
      }
      response.end('ok');
    });
    await fund(db(), w.id('A1'), '10.00');
    const moved = await as('A1.admin', 'POST', '/api/credits/allocations', {
      from_org_id: w.id('A1'),
      to_org_id: w.id('T2'),
      amount: '5.00',
    });
    expect(moved.status).toBe(200);
    // The endpoint is the agency's own, without its subtree: the allocation reaches T2, not A1.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received.filter((r) => r.headers['webhook-id'] && r.json?.type === 'credits.allocated')).toHaveLength(0);
    await as('A1.admin', 'PATCH', `${hooks(w.id('A1'))}/${made.endpoint.id}`, { include_subtree: true });
    const again = await as('A1.admin', 'POST', '/api/credits/allocations', {
      from_org_id: w.id('A1'),
      to_org_id: w.id('T2'),
      amount: '5.00',
    });
    expect(again.status).toBe(200);
    await until(() => receiver.of('credits.allocated').some((r) => r.json.data.amount === '5.00'), 'credits.allocated');
    await until(async () => {
      const log = await as('A1.admin', 'GET', `${hooks(w.id('A1'))}/${made.endpoint.id}/deliveries`);
      return log.body.deliveries[0]?.state === 'delivered';
    }, 'delivered');
    const log = await as('A1.admin', 'GET', `${hooks(w.id('A1'))}/${made.endpoint.id}/deliveries`);
    const delivery = log.body.deliveries[0];
    expect(delivery.attempts).toBe(3);
    expect(delivery.recent_attempts.map((a: any) => a.status_code)).toEqual([200, 500, 500]);
    expect(delivery.recent_attempts[1].response_body).toBe('boom');
    // The same webhook-id on every attempt, each signed afresh and verified.
    const sent = receiver.received.filter((r) => r.headers['webhook-id'] === receiver.of('credits.allocated').at(-1)!.id);
    expect(sent).toHaveLength(3);
    expect(sent.every((r) => r.verified)).toBe(true);
    expect(sent[0]!.json.data).toMatchObject({ amount: '5.00', from_organization: { name: 'Agency One' }, automatic: false });
    expectDocumented(sent[0]!.json);
    receiver.answer((_request, response) => response.end('ok'));
    await as('A1.admin', 'DELETE', `${hooks(w.id('A1'))}/${made.endpoint.id}`);
  });

  it('fails a delivery after the schedule; a redirect, a timeout and a huge answer are failed attempts', async () => {
    const made = await register('SA1.admin', w.id('SA1'), { event_types: ['agent_limit.changed'], url: receiver.url('/bad') });
    // The receiver's answer follows the attempt's number, whatever the timing: a redirect, then too slow, then 10 MB of 500.
    let calls = 0;
    receiver.answer((request, response) => {
      if (request.url !== '/bad') return response.end('ok');
      calls++;
      if (calls === 1) {
        response.writeHead(302, { location: 'http://169.254.169.254/' });
        return response.end();
      }
      if (calls === 2) return void setTimeout(() => response.end('late'), 5_000);
      response.writeHead(500);
      const chunk = 'x'.repeat(64 * 1024);
      let sent = 0;
      const more = () => {
        while (sent < 10 * 1024 * 1024) {
          sent += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', more);
        }
        response.end();
      };
      response.on('error', () => {});
      more();
    });
    // However the limit is changed, an agent_limit.changed event goes the same way: write one as the limit change's audit row would.
    await sql`insert into audit_log (organization_id, action, target_type, target_id, details)
      values (${w.id('SA1')}, 'billing.agent_limit', 'organization', ${w.id('SA1')}, '{"before": 5, "after": 7}')`.execute(db());
    await until(
      async () => {
        const log = await as('SA1.admin', 'GET', `${hooks(w.id('SA1'))}/${made.endpoint.id}/deliveries`);
        return log.body.deliveries.at(-1)?.state === 'failed';
      },
      'failed',
      20_000,
    );
    const log = await as('SA1.admin', 'GET', `${hooks(w.id('SA1'))}/${made.endpoint.id}/deliveries?state=failed`);
    const attempts = log.body.deliveries.at(-1).recent_attempts.reverse();
    expect(attempts).toHaveLength(4);
    expect(attempts[0]).toMatchObject({ status_code: 302 });
    expect(attempts[0].error).toContain('not followed');
    expect(attempts[1]).toMatchObject({ status_code: null });
    expect(attempts[1].error).toContain('No answer');
    expect(attempts[2].status_code).toBe(500);
    expect(attempts[2].response_body.length).toBeLessThanOrEqual(WEBHOOKS.responseBodyKeptChars);
    receiver.answer((_request, response) => response.end('ok'));
    // Redelivering the failed ones since an hour ago sends it again, with the same webhook-id.
    const before = receiver.received.length;
    const again = await as('SA1.admin', 'POST', `${hooks(w.id('SA1'))}/${made.endpoint.id}/redeliver`, {
      since: new Date(Date.now() - 3_600_000).toISOString(),
    });
    expect(again.status).toBe(202);
    expect(again.body.redelivered).toBeGreaterThanOrEqual(1);
    await until(() => receiver.received.length > before && receiver.received.at(-1)!.json?.type === 'agent_limit.changed', 'redelivery');
    await as('SA1.admin', 'DELETE', `${hooks(w.id('SA1'))}/${made.endpoint.id}`);
  });

  it('disables an endpoint that answers 410 Gone and mails its admins', async () => {
    const made = await register('A1.admin', w.id('A1'), { event_types: ['api_key.created'], url: receiver.url('/gone') });
    receiver.answer((request, response) => {
      response.statusCode = request.url === '/gone' ? 410 : 200;
      response.end();
    });
    const key = await as('A1.admin', 'POST', `/api/organizations/${w.id('A1')}/api-keys`, { name: 'hook test', scopes: ['usage:write'] });
    expect(key.status).toBe(201);
    await until(async () => {
      const row = await db()
        .selectFrom('webhook_endpoints')
        .select(['enabled', 'disabled_reason'])
        .where('id', '=', made.endpoint.id)
        .executeTakeFirstOrThrow();
      return row.disabled_reason === 'gone';
    }, 'disabled');
    const mail = await db()
      .selectFrom('outbox')
      .select(['to_address', 'subject'])
      .where('subject', 'like', 'Webhook endpoint disabled%')
      .execute();
    expect(mail.map((row) => row.to_address)).toContain(w.world.users['A1.admin']);
    // A test event is refused while it is disabled; enabling it again clears the reason.
    expect((await as('A1.admin', 'POST', `${hooks(w.id('A1'))}/${made.endpoint.id}/test`)).status).toBe(422);
    const enabled = await as('A1.admin', 'PATCH', `${hooks(w.id('A1'))}/${made.endpoint.id}`, { enabled: true });
    expect(enabled.body.endpoint).toMatchObject({ enabled: true, disabled_reason: null });
    receiver.answer((_request, response) => response.end('ok'));
    await as('A1.admin', 'DELETE', `${hooks(w.id('A1'))}/${made.endpoint.id}`);
  });

  it('disables an endpoint that failed for 72 hours without a success, failing what it waited for, and mails its admins', async () => {
    const made = await register('A1.admin', w.id('A1'), { event_types: ['api_key.revoked'], url: receiver.url('/down') });
    receiver.answer((request, response) => {
      response.statusCode = request.url === '/down' ? 503 : 200;
      response.end();
    });
    // Failing since three days and an hour: the next failure disables it.
    await sql`update webhook_endpoints set failing_since = now() - interval '73 hours' where id = ${made.endpoint.id}`.execute(db());
    const key = await as('A1.admin', 'POST', `/api/organizations/${w.id('A1')}/api-keys`, { name: 'down test', scopes: ['usage:write'] });
    await as('A1.admin', 'DELETE', `/api/organizations/${w.id('A1')}/api-keys/${key.body.api_key.id}`);
    await until(async () => {
      const row = await db()
        .selectFrom('webhook_endpoints')
        .select('disabled_reason')
        .where('id', '=', made.endpoint.id)
        .executeTakeFirstOrThrow();
      return row.disabled_reason === 'failing';
    }, 'disabled for failing');
    const log = await as('A1.admin', 'GET', `${hooks(w.id('A1'))}/${made.endpoint.id}/deliveries`);
    expect(log.body.deliveries.map((d: any) => d.state)).toEqual(['failed']);
    const mail = await db()
      .selectFrom('outbox')
      .select(['to_address', 'body_text'])
      .where('subject', '=', m.disabledSubject(receiver.url('/down')))
      .execute();
    expect(mail.map((row) => row.to_address)).toEqual([w.world.users['A1.admin']]);
    expect(mail[0]!.body_text).toContain('72 hours');
    receiver.answer((_request, response) => response.end('ok'));
    await as('A1.admin', 'DELETE', `${hooks(w.id('A1'))}/${made.endpoint.id}`);
  });

  it('checks the address at each connection: a name that now resolves to loopback is refused', async () => {
    const sender = createSender({ allowed: allowedHosts([]), timeoutMs: 2_000 });
    try {
      const refused = await sender.post('https://localhost:9/hooks', {}, '{}');
      expect(refused.status).toBeNull();
      expect(refused.error).toContain('Refused');
      const http = await sender.post(receiver.url(), {}, '{}');
      expect(http.error).toContain('https');
      expect(receiver.received.filter((r) => r.body === '{}')).toHaveLength(0);
    } finally {
      sender.close();
    }
  });

  it('sends a test event, and signs with both secrets during a rotation grace period', async () => {
    const made = await register('T1.admin', w.id('T1'), { event_types: ['balance.low'], url: receiver.url('/rotating') });
    const test = await as('T1.admin', 'POST', `${hooks(w.id('T1'))}/${made.endpoint.id}/test`);
    expect(test.status).toBe(202);
    await until(() => receiver.of('webhook.test').length > 0, 'test event');
    const first = receiver.of('webhook.test').at(-1)!;
    receiver.trust(made.secret);
    const rotated = await as('T1.admin', 'POST', `${hooks(w.id('T1'))}/${made.endpoint.id}/rotate`, { grace_hours: 1 });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(made.secret);
    expect(rotated.body.endpoint.previous_secret_expires_at).not.toBeNull();
    const count = receiver.of('webhook.test').length;
    await as('T1.admin', 'POST', `${hooks(w.id('T1'))}/${made.endpoint.id}/test`);
    await until(() => receiver.of('webhook.test').length > count, 'second test');
    const second = receiver.of('webhook.test').at(-1)!;
    expect(second.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(second.verified).toBe(true);
    receiver.trust(rotated.body.secret);
    // The new secret verifies the same delivery too; the first one was signed by the old alone.
    expect(first.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    const { Webhook } = await import('standardwebhooks');
    expect(() => new Webhook(rotated.body.secret).verify(second.body, second.headers)).not.toThrow();
    expect(() => new Webhook(rotated.body.secret).verify(first.body, first.headers)).toThrow();
    // Redelivering one event keeps its webhook-id.
    const log = await as('T1.admin', 'GET', `${hooks(w.id('T1'))}/${made.endpoint.id}/deliveries`);
    const redo = await as('T1.admin', 'POST', `${hooks(w.id('T1'))}/${made.endpoint.id}/deliveries/${log.body.deliveries[0].id}/redeliver`);
    expect(redo.status).toBe(202);
    await until(() => receiver.received.filter((r) => r.id === second.id).length === 2, 'redelivered');
    await as('T1.admin', 'DELETE', `${hooks(w.id('T1'))}/${made.endpoint.id}`);
  });
});

describe('events from the changes they report', () => {
  it('reports key, organization, agent and limit changes with their documented data', async () => {
    const made = await register('SA1.admin', w.id('SA1'), {
      event_types: [
        'api_key.created',
        'api_key.revoked',
        'organization.created',
        'organization.suspended',
        'agent.activated',
        'agent.deactivated',
        'agent_limit.warning',
        'agent_limit.critical',
      ],
      include_subtree: true,
      url: receiver.url('/all'),
    });
    receiver.trust(made.secret);
    const child = await as('SA1.admin', 'POST', '/api/organizations', { name: 'Hooked Agency', org_type: 'agency' });
    expect(child.status).toBe(201);
    const key = await as('SA1.admin', 'POST', `/api/organizations/${w.id('SA1')}/api-keys`, { name: 'events', scopes: ['usage:write'] });
    await as('SA1.admin', 'DELETE', `/api/organizations/${w.id('SA1')}/api-keys/${key.body.api_key.id}`);
    const suspended = await as('SA1.admin', 'PATCH', `/api/organizations/${child.body.organization.id}`, { status: 'suspended' });
    if (suspended.status !== 200) throw new Error(JSON.stringify(suspended.body));
    expect(suspended.status).toBe(200);
    await until(
      () =>
        ['organization.created', 'api_key.created', 'api_key.revoked', 'organization.suspended'].every((t) => receiver.of(t).length > 0),
      'the events',
    );
    for (const type of ['organization.created', 'api_key.created', 'api_key.revoked', 'organization.suspended']) {
      const event = receiver.of(type).at(-1)!;
      expect(event.verified).toBe(true);
      expectDocumented(event.json);
    }
    expect(
      receiver
        .of('organization.created')
        .at(-1)!
        .json.organization.path.map((o: any) => o.name),
    ).toEqual(['Super One', 'Hooked Agency']);
    await as('SA1.admin', 'DELETE', `${hooks(w.id('SA1'))}/${made.endpoint.id}`);
  });
});

describe('several processes', () => {
  it('two dispatchers share a burst: each event is sent once', async () => {
    const made = await register('H.admin', w.id('H'), { event_types: ['credits.adjusted'], url: receiver.url('/burst') });
    receiver.answer((_request, response) => void setTimeout(() => response.end('ok'), 3));
    // A second process's dispatcher, on the same database, taking small batches so the two interleave.
    const other = createWebhookDispatcher({
      db: db(),
      logger: w.t.app.log,
      mailer: { kind: 'outbox', send: async () => {} },
      sealer: secretSealer(w.t.jwtSecret),
      sender: createSender({ allowed: allowedHosts(['127.0.0.1']) }),
      pollMs: 10,
      batchSize: 7,
      concurrency: 3,
      timeoutPauseSeconds: [0.05],
    });
    try {
      await sql`insert into webhook_events (type, organization_id, data)
        select 'credits.adjusted', ${w.id('H')}::uuid, jsonb_build_object('amount', n || '.00', 'balance_after', '0.00', 'notes', null)
        from generate_series(1, 150) n`.execute(db());
      await until(
        async () => {
          const { rows } = await sql<{ n: number }>`select count(*)::integer as n from webhook_deliveries
          where endpoint_id = ${made.endpoint.id} and state = 'delivered'`.execute(db());
          return rows[0]!.n === 150;
        },
        'the burst delivered',
        30_000,
      );
      // Each send is an attempt recorded by the one dispatcher that held the delivery: a delivery sent again was
      // sent again after a recorded failure (here, answers slower than the 2 s timeout on a busy machine), never by
      // a second dispatcher at once.
      const sent = new Map<string, number>();
      for (const r of receiver.received) if (r.json?.organization?.id === w.id('H')) sent.set(r.id, (sent.get(r.id) ?? 0) + 1);
      const { rows } = await sql<{ event_id: string; attempts: number; failed_before: number }>`
        select d.event_id, d.attempts,
          (select count(*)::integer from webhook_attempts a where a.delivery_id = d.id and (a.status_code is null or a.status_code >= 300)) as failed_before
        from webhook_deliveries d where d.endpoint_id = ${made.endpoint.id}`.execute(db());
      expect(rows).toHaveLength(150);
      expect(sent.size).toBe(150);
      for (const row of rows) {
        expect(sent.get(row.event_id)).toBe(row.attempts);
        expect(row.failed_before).toBe(row.attempts - 1);
      }
    } finally {
      await other.close();
      receiver.answer((_request, response) => response.end('ok'));
      await as('H.admin', 'DELETE', `${hooks(w.id('H'))}/${made.endpoint.id}`);
    }
  });
});
