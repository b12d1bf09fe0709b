import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_LIMIT, USAGE_WINDOW, activationListSchema, entitlementSchema } from '@console/domain';
import { createTestApp, type TestApp } from './test/harness.ts';
import { DAY_MS, DEMO_MFA_ADMIN_EMAIL, DemoAlreadySeededError } from './db/seed.ts';
import { seedDemoWithUsage, type DemoSummary } from './demo-seed.ts';
import { DEMO_GRANT } from './demo-grants.ts';
import { reconcile } from './modules/credits/reconcile.ts';
import { secretSealer } from './lib/sealer.ts';
import { generate } from 'otplib';
import { DEMO_SSO } from './db/seed-sso.ts';

/**
 * The demo seed on a fresh database: every agents screen has live figures (a priced catalog,
 * activations near and at their limits, a month of usage charged to the ledger), its API key
 * works on the machine API, and the books reconcile.
 */

let t: TestApp;
let demo: DemoSummary;
let seededInMs: number;
const db = () => t.database.db;
const orgId = (name: string) => demo.organizations.find((o) => o.name === name)!.id;

beforeAll(async () => {
  t = await createTestApp();
  const started = Date.now();
  demo = await seedDemoWithUsage(db(), {
    totpSealer: secretSealer(t.jwtSecret, 'totp-secrets'),
    identitySealer: secretSealer(t.jwtSecret, 'identity-secrets'),
  });
  seededInMs = Date.now() - started;
});
afterAll(async () => {
  await t?.close();
});

describe('the demo seed', () => {
  it("registers Bluebird Group's provider on this machine, its secret sealed as the server seals it, its domain in effect", async () => {
    const org = orgId(DEMO_SSO.organization);
    const provider = await db().selectFrom('identity_providers').selectAll().where('organization_id', '=', org).executeTakeFirstOrThrow();
    expect(provider).toMatchObject({
      issuer: DEMO_SSO.issuer,
      client_id: DEMO_SSO.clientId,
      jit_role: 'super_agency_user',
      enforce_sso: false,
    });
    expect(provider.client_secret_sealed).not.toContain(DEMO_SSO.clientSecret);
    expect(secretSealer(t.jwtSecret, 'identity-secrets').open(provider.client_secret_sealed)).toBe(DEMO_SSO.clientSecret);
    const domain = await db().selectFrom('identity_domains').selectAll().where('organization_id', '=', org).executeTakeFirstOrThrow();
    expect(domain).toMatchObject({ domain: DEMO_SSO.domain, verified_at: null });
    expect(domain.approved_at).not.toBeNull();
    // The provider's people are not members yet: each joins at the first sign-in.
    const members = await db().selectFrom('users').select('email').where('email', 'like', `%@${DEMO_SSO.domain}`).execute();
    expect(members).toEqual([]);
    expect(demo.sso).toMatchObject({ organization: DEMO_SSO.organization, domain: DEMO_SSO.domain });
  });

  it('makes a catalog of priced agent types whose first prices precede any usage the API accepts', async () => {
    const types = await sql<{ code: string; unit: string; prices: number; first: string }>`
      select t.code, t.unit, count(p.*)::int as prices, min(p.effective_from) as first
      from agent_types t join agent_prices p on p.agent_type_id = t.id group by t.id order by t.code`.execute(db());
    expect(types.rows.length).toBeGreaterThanOrEqual(5);
    expect(new Set(types.rows.map((r) => r.unit)).size).toBeGreaterThanOrEqual(3);
    for (const type of types.rows) {
      expect(Date.parse(type.first), type.code).toBeLessThan(Date.now() - USAGE_WINDOW.pastDays * DAY_MS);
    }
    expect(types.rows.some((r) => r.prices > 1)).toBe(true);
  });

  it('activates agents within every limit, one organization critical and one at a warning, one runtime in error', async () => {
    const orgs = await sql<{ name: string; live: number; limit: number }>`
      select o.name, count(v.id)::int as live, b.activated_agent_limit as limit
      from organizations o join organization_billing_settings b on b.organization_id = o.id
      left join agent_activations v on v.organization_id = o.id and v.deactivated_at is null
      group by o.id, b.activated_agent_limit`.execute(db());
    const percent = (o: { live: number; limit: number }) => (o.limit === 0 ? 0 : (100 * o.live) / o.limit);
    for (const org of orgs.rows) expect(org.live, org.name).toBeLessThanOrEqual(org.limit);
    expect(orgs.rows.filter((o) => o.live > 0).length).toBeGreaterThanOrEqual(3);
    expect(orgs.rows.some((o) => percent(o) >= AGENT_LIMIT.criticalPercent)).toBe(true);
    expect(orgs.rows.some((o) => percent(o) >= AGENT_LIMIT.warningPercent && percent(o) < AGENT_LIMIT.criticalPercent)).toBe(true);
    const statuses = await sql<{ status: string }>`select distinct status from agent_activations`.execute(db());
    expect(statuses.rows.map((r) => r.status).sort()).toEqual(['active', 'error', 'inactive']);
  });

  it('records a month of usage through the engine: events and their consumption entries over at least 25 UTC days', async () => {
    const events = await sql<{ events: number; days: number; charged: number; linked: number; orgs: number }>`
      select count(*)::int as events, count(distinct (occurred_at at time zone 'UTC')::date)::int as days,
             count(*) filter (where charged > 0)::int as charged, count(ledger_entry_id)::int as linked,
             count(distinct organization_id)::int as orgs
      from usage_events`.execute(db());
    const row = events.rows[0]!;
    expect(row.events).toBe(demo.events);
    expect(row.days).toBeGreaterThanOrEqual(25);
    expect(row.orgs).toBe(new Set(demo.organizations.filter((o) => o.type === 'tenant').map((o) => o.id)).size);
    const entries = await sql<{ n: number; total: string }>`
      select count(*)::int as n, coalesce(-sum(amount), 0)::numeric(16, 2)::text as total
      from credit_ledger_entries where entry_type = 'consumption'`.execute(db());
    expect(row.charged).toBeGreaterThan(1000);
    // One consumption entry per batch, organization and agent (and price): far fewer than the events, and every charged event linked.
    expect(entries.rows[0]!.n).toBeGreaterThan(0);
    expect(entries.rows[0]!.n).toBeLessThan(row.charged);
    expect(row.linked).toBeGreaterThanOrEqual(row.charged);
    expect(entries.rows[0]!.total).toBe(demo.charged);
    const days = await sql<{ days: number }>`select count(distinct day)::int as days from usage_event_days`.execute(db());
    expect(days.rows[0]!.days).toBe(row.days);
    expect(await reconcile(db())).toMatchObject({ usage_day_mismatches: [], credit_day_mismatches: [] });
  });

  it('dates the ledger as the usage happened: consumption on each of the 30 days, the credits the day before', async () => {
    const days = await sql<{ days: number; first: string; last: string }>`
      select count(distinct (created_at at time zone 'UTC')::date)::int as days,
             min((created_at at time zone 'UTC')::date)::text as first, max((created_at at time zone 'UTC')::date)::text as last
      from credit_ledger_entries where entry_type = 'consumption'`.execute(db());
    const today = new Date().toISOString().slice(0, 10);
    const daysAgo = (n: number) => new Date(Date.parse(today) - n * DAY_MS).toISOString().slice(0, 10);
    // The same days as the events (all 30 on the demo's own figures). The last is today's, but
    // in the first minutes of a UTC day, before any of today's usage, it is yesterday's.
    const events = await sql<{ last: string }>`select max(day)::text as last from usage_event_days`.execute(db());
    expect([today, daysAgo(1)]).toContain(events.rows[0]!.last);
    expect(days.rows[0]).toEqual({ days: demo.days, first: daysAgo(29), last: events.rows[0]!.last });
    // The credits handed down (earnings and automatic top-ups come with the usage, on its days;
    // the promotional grant is given today).
    const credits = await sql<{ day: string }>`
      select distinct (e.created_at at time zone 'UTC')::date::text as day from credit_ledger_entries e
      where e.entry_type not in ('consumption', 'earning') and coalesce(e.metadata->>'automatic', '') <> 'true'
        and e.transaction_group not in (select r.transaction_group from credit_grants g join credit_ledger_entries r on r.id = g.entry_id)`.execute(
      db(),
    );
    expect(credits.rows.map((r) => r.day)).toEqual([daysAgo(30)]);
    // Each day's consumption on its day: the credit day totals hold as many days as the events.
    const usageDays = await sql<{
      n: number;
    }>`select count(distinct day)::int as n from credit_usage_days where entry_type = 'consumption'`.execute(db());
    expect(usageDays.rows[0]!.n).toBe(demo.days);
    // The new entries still default to the moment they are written.
    const column = await sql<{ d: string }>`
      select column_default as d from information_schema.columns where table_name = 'credit_ledger_entries' and column_name = 'created_at'`.execute(
      db(),
    );
    expect(column.rows[0]!.d).toBe('clock_timestamp()');
  });

  it('leaves one tenant just below its low-balance threshold, alerted when it crossed, and the others above', async () => {
    expect(demo.lowBalance.map((l) => l.organization)).toEqual(['Lakeside Pharmacy']);
    const [low] = demo.lowBalance;
    expect(Number(low!.balance)).toBeGreaterThan(Number(low!.threshold) - 10);
    const alerts = await sql<{
      kind: string;
    }>`select kind from balance_alerts where organization_id = ${orgId('Lakeside Pharmacy')}`.execute(db());
    expect(alerts.rows.map((r) => r.kind)).toEqual(['low_balance']);
  });

  it('has an admin with a confirmed authenticator app, whose printed secret answers the sign-in challenge', async () => {
    expect(demo.mfaAdmin).toMatchObject({
      email: DEMO_MFA_ADMIN_EMAIL,
      organization: 'Bluebird Group',
      totpSecret: expect.stringMatching(/^[A-Z2-7]+$/),
    });
    // Not one of the people of every role, who sign in with the password alone.
    expect(demo.signIns.map((s) => s.email)).not.toContain(DEMO_MFA_ADMIN_EMAIL);
    const challenge = await t.request('POST', '/api/auth/sign-in', { email: DEMO_MFA_ADMIN_EMAIL, password: demo.password });
    expect(challenge.status).toBe(200);
    expect(challenge.body.mfa_required).toBe(true);
    const session = await t.request('POST', '/api/auth/sign-in/second-factor', {
      challenge_token: challenge.body.challenge_token,
      method: 'totp',
      code: await generate({ secret: demo.mfaAdmin!.totpSecret }),
    });
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({ email: DEMO_MFA_ADMIN_EMAIL, role: 'super_agency_admin' });
  });

  it('answers each activation its 30 days of usage on the agents screen', async () => {
    const { token } = await t.signIn('tenant.admin@demo.example.com', demo.password);
    const response = await t.request('GET', `/api/organizations/${orgId('Acme Dental')}/agents`, undefined, { token });
    expect(response.status).toBe(200);
    const list = activationListSchema.parse(response.body);
    expect(list.active_agent_count).toBe(6);
    for (const activation of list.activations) expect(activation.usage_30d.events, activation.agent_type.code).toBeGreaterThan(0);
  });

  it("forecasts a month, not a day, on Acme Dental's dashboard: its depletion is its balance over its month of usage", async () => {
    const { token } = await t.signIn('tenant.admin@demo.example.com', demo.password);
    const response = await t.request('GET', '/api/dashboard', undefined, { token });
    expect(response.status).toBe(200);
    const { credits } = response.body;
    expect(response.body.organization.name).toBe('Acme Dental');
    // The events occurred over 30 days, though the engine posted their consumption as it recorded them.
    expect(credits.forecast.basis_days).toBe(30);
    expect(credits.forecast.next_month).toBe(credits.usage.current_period);
    const cents = (amount: string) => BigInt(amount.replace('.', ''));
    const [balance, month] = [cents(credits.balance), cents(credits.usage.current_period)];
    // balance ÷ month to one decimal, half up, in whole numbers.
    expect(credits.depletion_months).toBe(Number((balance * 20n + month) / (2n * month)) / 10);
    expect(credits.depletion_months).toBeGreaterThan(1);
  });

  it('gives an API key that authenticates on the machine API', async () => {
    expect(demo.apiKey.secret).toMatch(/^oc_[0-9a-f]{8}_[0-9a-f]{64}$/);
    const stored = await db()
      .selectFrom('api_keys')
      .select(['secret_hash', 'scopes'])
      .where('prefix', '=', demo.apiKey.prefix)
      .executeTakeFirstOrThrow();
    expect(stored.secret_hash).not.toContain(demo.apiKey.secret.slice(12));
    const acme = orgId('Acme Dental');
    const response = await t.request('GET', `/api/v1/entitlements?organization_id=${acme}&agent=support-bot`, undefined, {
      headers: { authorization: `Bearer ${demo.apiKey.secret}` },
    });
    expect(response.status).toBe(200);
    const balance = await db()
      .selectFrom('organization_billing_settings')
      .select('credit_balance')
      .where('organization_id', '=', acme)
      .executeTakeFirstOrThrow();
    expect(entitlementSchema.parse(response.body)).toEqual({
      allowed: true,
      reason: null,
      cap: null,
      balance: balance.credit_balance,
      // The support bot may not spend the promotional grant for the voice receptionist; it expires in three days.
      spendable: (Number(balance.credit_balance) - Number(DEMO_GRANT.amount)).toFixed(2),
      soonest_expiry: { at: demo.grant.expiresAt, amount: DEMO_GRANT.amount },
      activation_status: 'active',
      // Acme Dental pays the catalog's 0.1250 raised 20 % by Northwind Partners and 25 % more by
      // Northwind Digital: their margins, so the house's key is not told that price.
      price: null,
    });
  });

  it("sets Northwind's price books before the usage, and its sellers earn their margins on it, dated with it", async () => {
    const books = await sql<{ seller: string; code: string; price: string; first: string }>`
      select o.name as seller, t.code, p.price::text as price, p.effective_from::text as first
      from organization_prices p join organizations o on o.id = p.organization_id join agent_types t on t.id = p.agent_type_id
      order by o.name, t.code, p.effective_from`.execute(db());
    expect(books.rows.map((b) => [b.seller, b.code, b.price])).toEqual([
      ['Northwind Digital', 'lead-qualifier', '0.0675'],
      ['Northwind Digital', 'support-bot', '0.1500'],
      ['Northwind Digital', 'support-bot', '0.1875'],
      ['Northwind Partners', 'lead-qualifier', '0.0540'],
      ['Northwind Partners', 'support-bot', '0.1200'],
      ['Northwind Partners', 'support-bot', '0.1500'],
    ]);
    const firstUsage = await sql<{ first: string }>`select min(occurred_at)::text as first from usage_events`.execute(db());
    // Each book is set before the first usage (the support bot's again when the catalog price rose, keeping its markup).
    for (const book of books.rows.filter(
      (b, n) => n === 0 || books.rows[n - 1]!.seller !== b.seller || books.rows[n - 1]!.code !== b.code,
    )) {
      expect(Date.parse(book.first), `${book.seller} ${book.code}`).toBeLessThan(Date.parse(firstUsage.rows[0]!.first));
    }
    const earnings = await sql<{ seller: string; n: number; total: string; days: number }>`
      select o.name as seller, count(*)::int as n, sum(e.amount)::text as total,
             count(distinct (e.created_at at time zone 'UTC')::date)::int as days
      from credit_ledger_entries e join organizations o on o.id = e.organization_id
      where e.entry_type = 'earning' group by o.name order by o.name`.execute(db());
    expect(earnings.rows.map((e) => e.seller)).toEqual(['Northwind Digital', 'Northwind Partners']);
    for (const earning of earnings.rows) {
      expect(earning.n).toBeGreaterThan(0);
      expect(earning.days).toBeGreaterThanOrEqual(25);
    }
    expect(demo.earnings).toEqual(earnings.rows.map((e) => ({ seller: e.seller, earned: Number(e.total).toFixed(2) })));
    expect((await reconcile(db())).ok).toBe(true);
  });

  it("refuses Harbor Realty's usage past the monthly spend cap Northwind Digital set, in the current month", async () => {
    const harbor = orgId('Harbor Realty');
    const settings = await db()
      .selectFrom('organization_billing_settings')
      .select('spend_cap')
      .where('organization_id', '=', harbor)
      .executeTakeFirstOrThrow();
    expect(demo.cap).toMatchObject({ organization: 'Harbor Realty', setBy: 'Northwind Digital', cap: settings.spend_cap });
    expect(demo.cap.refused).toBeGreaterThan(0);
    const month = new Date().toISOString().slice(0, 7);
    const current = demo.cap.months.find((m) => m.month === month);
    expect(demo.cap.months.some((m) => m.refused > 0)).toBe(true);
    // Sized on the current month's usage, it is reached in it (on the 1st, before the tenant's usage of the day, in the month before).
    if (new Date().getUTCDate() > 1) expect(current?.refused).toBeGreaterThan(0);
    // Every month the cap refused in was charged up to the cap, short of it by less than one event's charge.
    const largest = await sql<{ charge: string }>`
      select coalesce(max(charged), 0)::text as charge from usage_events where organization_id = ${harbor}`.execute(db());
    for (const m of demo.cap.months.filter((m) => m.refused > 0)) {
      const charged = await sql<{ total: string }>`
        select coalesce(sum(charged), 0)::numeric(16, 2)::text as total from usage_events
        where organization_id = ${harbor} and to_char(occurred_at at time zone 'UTC', 'YYYY-MM') = ${m.month}`.execute(db());
      expect(charged.rows[0]!.total, m.month).toBe(m.charged);
      expect(Number(m.charged)).toBeLessThanOrEqual(Number(settings.spend_cap));
      expect(Number(settings.spend_cap) - Number(m.charged)).toBeLessThan(Number(largest.rows[0]!.charge));
    }
    const alerts = await sql<{ kind: string }>`
      select kind from balance_alerts where organization_id = ${harbor} order by id`.execute(db());
    expect(alerts.rows.map((r) => r.kind)).toContain('cap_reached');
    // What its parent is shown ("N events this month"): the engine's count of each month's refusals.
    const counted = await sql<{ month: string; refused: string }>`
      select to_char(month, 'YYYY-MM') as month, refused::text from spend_cap_refusals
      where organization_id = ${harbor} order by month`.execute(db());
    expect(counted.rows.map((r) => [r.month, Number(r.refused)])).toEqual(
      demo.cap.months.filter((m) => m.refused > 0).map((m) => [m.month, m.refused]),
    );
  });

  it('tops Corner Bakery up automatically from Northwind Retail when its balance crossed its line, on that day, in both ledgers', async () => {
    const bakery = orgId('Corner Bakery');
    const retail = orgId('Northwind Retail');
    const received = await sql<{ amount: string; group: string; day: string }>`
      select amount::text as amount, transaction_group::text as group, (created_at at time zone 'UTC')::date::text as day
      from credit_ledger_entries
      where organization_id = ${bakery} and entry_type = 'allocation_received' and metadata->>'automatic' = 'true'`.execute(db());
    expect(received.rows.length).toBeGreaterThan(0);
    for (const row of received.rows) {
      const sent = await sql<{ organization_id: string; amount: string; day: string }>`
        select organization_id::text, amount::text as amount, (created_at at time zone 'UTC')::date::text as day
        from credit_ledger_entries
        where transaction_group = ${row.group} and entry_type = 'allocation_sent' and metadata->>'automatic' = 'true'`.execute(db());
      expect(sent.rows).toEqual([{ organization_id: retail, amount: `-${row.amount}`, day: row.day }]);
      // Made with the usage that crossed the line, dated with it (not when the seed ran).
      const crossing = await sql<{ n: number }>`
        select count(*)::int as n from credit_ledger_entries c
        where c.organization_id = ${bakery} and c.entry_type = 'consumption'
          and c.created_at = (select r.created_at from credit_ledger_entries r where r.transaction_group = ${row.group} and r.organization_id = ${bakery})`.execute(
        db(),
      );
      expect(crossing.rows[0]!.n).toBeGreaterThan(0);
    }
    const requests = await sql<{ outcome: string }>`select outcome from top_up_requests where organization_id = ${bakery}`.execute(db());
    expect(requests.rows.map((r) => r.outcome)).toEqual(received.rows.map(() => 'topped_up'));
    expect(demo.topUps).toEqual([
      {
        organization: 'Corner Bakery',
        from: 'Northwind Retail',
        count: received.rows.length,
        amount: received.rows.reduce((sum, r) => sum + Number(r.amount), 0).toFixed(2),
      },
    ]);
  });

  it('gives Acme Dental a promotional grant for its voice receptionist from its parent, expiring in three days', async () => {
    expect(demo.grant).toMatchObject({ organization: DEMO_GRANT.organization, agent: DEMO_GRANT.agent, amount: DEMO_GRANT.amount });
    const { rows } = await sql<{ remaining: string; days: number; agents: string[] }>`
      select g.remaining::text, round(extract(epoch from g.expires_at - now()) / 86400)::int as days,
             array(select t.code from agent_types t where t.id = any(g.agent_type_ids)) as agents
      from credit_grants g join organizations o on o.id = g.organization_id where o.name = ${DEMO_GRANT.organization}`.execute(db());
    expect(rows).toEqual([{ remaining: DEMO_GRANT.amount, days: DEMO_GRANT.expiresInDays, agents: [DEMO_GRANT.agent] }]);
  });

  it('bills the credits its sellers moved: invoices issued days ago, one paid, one partly paid, one overdue, each line on one invoice', async () => {
    const states = new Set(demo.invoices.map((i) => i.state));
    for (const state of ['paid', 'partially_paid', 'overdue'] as const) expect(states, JSON.stringify(demo.invoices)).toContain(state);
    expect(demo.invoices.find((i) => i.state === 'paid')).toMatchObject({ seller: demo.house.name, buyer: 'Northwind Partners' });
    expect(demo.invoices.find((i) => i.state === 'partially_paid')).toMatchObject({ buyer: 'Summit Clinic' });
    expect(demo.invoices.filter((i) => i.state === 'overdue').map((i) => i.seller)).toEqual(['Northwind Digital', 'Northwind Digital']);
    // Every initial balance is billed once, by the buyer's parent, priced at its details.
    const lines = await sql<{ n: number; buyers: number }>`
      select count(*)::int as n, count(distinct i.buyer_id)::int as buyers
      from invoice_lines l join invoices i on i.id = l.invoice_id
      join credit_ledger_entries e on e.id = l.entry_id and e.organization_id = i.buyer_id
      where l.kind = 'initial_balance' and l.amount = round(l.credits * i.credit_price, 2)`.execute(db());
    expect(lines.rows[0]).toEqual({ n: demo.organizations.length, buyers: demo.organizations.length });
  });

  it('reconciles, runs in seconds, and refuses a second run', async () => {
    const report = await reconcile(db());
    expect(report).toMatchObject({ ok: true });
    expect(seededInMs).toBeLessThan(60_000);
    await expect(seedDemoWithUsage(db())).rejects.toBeInstanceOf(DemoAlreadySeededError);
  });
});
