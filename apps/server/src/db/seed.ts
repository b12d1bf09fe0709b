import type { Kysely, Transaction } from 'kysely';
import { API_SCOPES, rolesForOrgType, type ActivationStatus, type AgentKind, type OrgType } from '@console/domain';
import type { DB } from './schema.ts';
import { generateKey } from '../lib/api-key.ts';
import { writeAudit } from '../lib/audit.ts';
import type { SecretSealer } from '../lib/sealer.ts';
import { seedMfaAdmin, type SeededMfaAdmin } from './seed-mfa-admin.ts';
import { seedSso, type SeededSso } from './seed-sso.ts';

export { DEMO_MFA_ADMIN_EMAIL } from './seed-mfa-admin.ts';
import { generatePassword, hashPassword } from '../lib/secrets.ts';

const DEMO_DOMAIN = 'demo.example.com';

interface DemoOrg {
  name: string;
  type: OrgType;
  agentLimit: number;
  /**
   * Credits it receives from its parent when the demo is funded. `low` funds a tenant with
   * exactly what its month of usage costs plus a little less than its low-balance threshold,
   * so it ends the month just below the threshold.
   */
  credits: `${number}.${number}` | 'low';
  children?: DemoOrg[];
}

/** Two super agencies, each with agencies and tenants; limits fit inside each parent's. */
const DEMO_TREE: DemoOrg[] = [
  {
    name: 'Northwind Partners',
    type: 'super_agency',
    agentLimit: 40,
    credits: '25000.00',
    children: [
      {
        name: 'Northwind Digital',
        type: 'agency',
        agentLimit: 20,
        credits: '10000.00',
        children: [
          { name: 'Acme Dental', type: 'tenant', agentLimit: 8, credits: '1500.00' },
          { name: 'Harbor Realty', type: 'tenant', agentLimit: 6, credits: '1000.00' },
        ],
      },
      {
        name: 'Northwind Retail',
        type: 'agency',
        agentLimit: 12,
        credits: '3000.00',
        children: [{ name: 'Corner Bakery', type: 'tenant', agentLimit: 4, credits: '400.00' }],
      },
    ],
  },
  {
    name: 'Bluebird Group',
    type: 'super_agency',
    agentLimit: 30,
    credits: '15000.00',
    children: [
      {
        name: 'Bluebird Health',
        type: 'agency',
        agentLimit: 15,
        credits: '8000.00',
        children: [
          { name: 'Summit Clinic', type: 'tenant', agentLimit: 5, credits: '1200.00' },
          { name: 'Lakeside Pharmacy', type: 'tenant', agentLimit: 3, credits: 'low' },
        ],
      },
    ],
  },
];

/** A price in force from this many days before the seed on: older than any demo usage. */
interface DemoPrice {
  daysAgo: number;
  price: string;
}

export interface DemoAgentType {
  code: string;
  name: string;
  description: string;
  kind: AgentKind;
  unit: string;
  /** Oldest first. */
  prices: DemoPrice[];
}

/**
 * The catalog. Every first price is 45 days old, so each event of the last 30 days has a
 * price in force; the support bot's price rose 12 days ago, so its month is charged at two prices.
 */
export const DEMO_AGENT_TYPES: DemoAgentType[] = [
  {
    code: 'support-bot',
    name: 'Support Bot',
    description: 'Answers customer questions in chat and hands over to staff when it must.',
    kind: 'assistant',
    unit: 'conversation',
    prices: [
      { daysAgo: 45, price: '0.1000' },
      { daysAgo: 12, price: '0.1250' },
    ],
  },
  {
    code: 'lead-qualifier',
    name: 'Lead Qualifier',
    description: 'Scores inbound leads and routes the promising ones to sales.',
    kind: 'automation',
    unit: 'run',
    prices: [{ daysAgo: 45, price: '0.0450' }],
  },
  {
    code: 'voice-receptionist',
    name: 'Voice Receptionist',
    description: 'Takes phone calls, answers common questions and books callbacks.',
    kind: 'assistant',
    unit: 'minute',
    prices: [{ daysAgo: 45, price: '0.0325' }],
  },
  {
    code: 'doc-summarizer',
    name: 'Document Summarizer',
    description: 'Summarizes contracts, reports and patient letters.',
    kind: 'analytics',
    unit: '1k tokens',
    prices: [{ daysAgo: 45, price: '0.0018' }],
  },
  {
    code: 'scheduler',
    name: 'Appointment Scheduler',
    description: 'Books, moves and confirms appointments in the calendar.',
    kind: 'automation',
    unit: 'booking',
    prices: [{ daysAgo: 45, price: '0.0200' }],
  },
  {
    code: 'crm-sync',
    name: 'CRM Sync',
    description: 'Keeps contacts and deals in step with the CRM.',
    kind: 'integration',
    unit: 'record',
    prices: [{ daysAgo: 45, price: '0.0004' }],
  },
];

/** The demo's price books: a seller's markup, in whole percent, on its own price of some agent types. */
export interface DemoPriceBook {
  seller: string;
  markupPercent: number;
  agents: string[];
}

/**
 * Northwind Partners sells the support bot and the lead qualifier to its agencies 20 % above
 * the catalog, and Northwind Digital to its tenants a further 25 % above that (Acme Dental and
 * Harbor Realty pay 1.5 × the catalog; Corner Bakery, under Northwind Retail, 1.2 ×). Listed
 * from the top down: each book is a markup on the price its seller pays.
 */
export const DEMO_PRICE_BOOKS: DemoPriceBook[] = [
  { seller: 'Northwind Partners', markupPercent: 20, agents: ['support-bot', 'lead-qualifier'] },
  { seller: 'Northwind Digital', markupPercent: 25, agents: ['support-bot', 'lead-qualifier'] },
];

/** The books are set this many days before the seed: before the credits and every day of usage. */
export const DEMO_BOOK_DAYS_AGO = 31;

/** A price of four places as an integer of ten-thousandths. */
const scaledPrice = (price: string) => {
  const [whole, fraction = ''] = price.split('.');
  return BigInt(whole!) * 10_000n + BigInt(fraction.padEnd(4, '0'));
};

/** A price of four places times (100 + percent) / 100, exactly (the demo's figures divide evenly). */
function markedUp(price: string, percent: number): string {
  const raised = scaledPrice(price) * BigInt(100 + percent);
  if (raised % 100n !== 0n) throw new Error(`The demo's markup of ${percent} % on ${price} is not exact to four places.`);
  const value = raised / 100n;
  return `${value / 10_000n}.${String(value % 10_000n).padStart(4, '0')}`;
}

/**
 * The rows of the demo's price books: for each seller and agent type, its price from
 * DEMO_BOOK_DAYS_AGO on, and a new one each time the catalog price rose later (a seller
 * follows the catalog, keeping its markup). `daysAgo` as in the catalog's prices.
 */
export function demoBookPrices(): { seller: string; agent: string; daysAgo: number; price: string }[] {
  const rows: { seller: string; agent: string; daysAgo: number; price: string }[] = [];
  const walk = (o: DemoOrg, parent: string | null): [string, string | null][] => [
    [o.name, parent],
    ...(o.children ?? []).flatMap((c) => walk(c, o.name)),
  ];
  // Each demo organization's parent, by name (null under the house).
  const sellers = new Map(DEMO_TREE.flatMap((o) => walk(o, null)));
  for (const book of DEMO_PRICE_BOOKS) {
    for (const agent of book.agents) {
      const type = DEMO_AGENT_TYPES.find((t) => t.code === agent)!;
      // The seller's own price: the catalog, raised by the books above it (listed before it).
      const upper = (daysAgo: number, catalog: string) => {
        let price = catalog;
        for (let at = sellers.get(book.seller); at; at = sellers.get(at) ?? null) {
          const above = rows.filter((r) => r.seller === at && r.agent === agent && r.daysAgo >= daysAgo).at(-1);
          if (above && scaledPrice(above.price) > scaledPrice(price)) price = above.price;
        }
        return price;
      };
      for (const [n, catalog] of type.prices.entries()) {
        const from = Math.min(catalog.daysAgo, DEMO_BOOK_DAYS_AGO);
        const until = type.prices[n + 1]?.daysAgo ?? -1;
        if (until >= DEMO_BOOK_DAYS_AGO) continue;
        rows.push({ seller: book.seller, agent, daysAgo: from, price: markedUp(upper(from, catalog.price), book.markupPercent) });
      }
    }
  }
  return rows;
}

/**
 * A live activation of the demo, as its runtime last reported it, with the usage it makes:
 * about `perDay` events on a weekday, each of `units` between min and max (with `places` decimals).
 * A runtime that went quiet or failed stops reporting usage when it was last active.
 */
export interface DemoActivation {
  organization: string;
  agent: string;
  status: ActivationStatus;
  health: number;
  lastActiveMinutesAgo: number;
  activatedDaysAgo: number;
  perDay: number;
  units: { min: number; max: number; places: number };
}

const one = { min: 1, max: 1, places: 0 };
const minutes = { min: 0.5, max: 9, places: 1 };
const tokens = { min: 2, max: 60, places: 3 };
const records = { min: 10, max: 250, places: 0 };

/**
 * Acme Dental runs 6 of its 8 (75%: a warning), Summit Clinic 5 of 5 (100%: critical, and
 * its voice receptionist in error), Corner Bakery's scheduler went quiet two days ago.
 */
export const DEMO_ACTIVATIONS: DemoActivation[] = [
  {
    organization: 'Acme Dental',
    agent: 'support-bot',
    status: 'active',
    health: 97,
    lastActiveMinutesAgo: 2,
    activatedDaysAgo: 40,
    perDay: 45,
    units: one,
  },
  {
    organization: 'Acme Dental',
    agent: 'voice-receptionist',
    status: 'active',
    health: 92,
    lastActiveMinutesAgo: 6,
    activatedDaysAgo: 40,
    perDay: 18,
    units: minutes,
  },
  {
    organization: 'Acme Dental',
    agent: 'scheduler',
    status: 'active',
    health: 99,
    lastActiveMinutesAgo: 1,
    activatedDaysAgo: 40,
    perDay: 22,
    units: one,
  },
  {
    organization: 'Acme Dental',
    agent: 'doc-summarizer',
    status: 'active',
    health: 88,
    lastActiveMinutesAgo: 25,
    activatedDaysAgo: 33,
    perDay: 12,
    units: tokens,
  },
  {
    organization: 'Acme Dental',
    agent: 'lead-qualifier',
    status: 'active',
    health: 95,
    lastActiveMinutesAgo: 14,
    activatedDaysAgo: 18,
    perDay: 10,
    units: one,
  },
  {
    organization: 'Acme Dental',
    agent: 'crm-sync',
    status: 'active',
    health: 100,
    lastActiveMinutesAgo: 9,
    activatedDaysAgo: 40,
    perDay: 8,
    units: records,
  },
  {
    organization: 'Harbor Realty',
    agent: 'lead-qualifier',
    status: 'active',
    health: 94,
    lastActiveMinutesAgo: 3,
    activatedDaysAgo: 40,
    perDay: 30,
    units: one,
  },
  {
    organization: 'Harbor Realty',
    agent: 'voice-receptionist',
    status: 'active',
    health: 81,
    lastActiveMinutesAgo: 38,
    activatedDaysAgo: 40,
    perDay: 10,
    units: minutes,
  },
  {
    organization: 'Harbor Realty',
    agent: 'crm-sync',
    status: 'active',
    health: 98,
    lastActiveMinutesAgo: 11,
    activatedDaysAgo: 22,
    perDay: 6,
    units: records,
  },
  {
    organization: 'Corner Bakery',
    agent: 'support-bot',
    status: 'active',
    health: 90,
    lastActiveMinutesAgo: 17,
    activatedDaysAgo: 40,
    perDay: 15,
    units: one,
  },
  {
    organization: 'Corner Bakery',
    agent: 'scheduler',
    status: 'inactive',
    health: 70,
    lastActiveMinutesAgo: 2 * 24 * 60 + 95,
    activatedDaysAgo: 40,
    perDay: 8,
    units: one,
  },
  {
    organization: 'Summit Clinic',
    agent: 'support-bot',
    status: 'active',
    health: 96,
    lastActiveMinutesAgo: 4,
    activatedDaysAgo: 40,
    perDay: 25,
    units: one,
  },
  {
    organization: 'Summit Clinic',
    agent: 'voice-receptionist',
    status: 'error',
    health: 34,
    lastActiveMinutesAgo: 3 * 60 + 12,
    activatedDaysAgo: 40,
    perDay: 14,
    units: minutes,
  },
  {
    organization: 'Summit Clinic',
    agent: 'scheduler',
    status: 'active',
    health: 99,
    lastActiveMinutesAgo: 2,
    activatedDaysAgo: 40,
    perDay: 20,
    units: one,
  },
  {
    organization: 'Summit Clinic',
    agent: 'doc-summarizer',
    status: 'active',
    health: 91,
    lastActiveMinutesAgo: 47,
    activatedDaysAgo: 26,
    perDay: 10,
    units: tokens,
  },
  {
    organization: 'Summit Clinic',
    agent: 'crm-sync',
    status: 'active',
    health: 97,
    lastActiveMinutesAgo: 19,
    activatedDaysAgo: 40,
    perDay: 5,
    units: records,
  },
  {
    organization: 'Lakeside Pharmacy',
    agent: 'support-bot',
    status: 'active',
    health: 93,
    lastActiveMinutesAgo: 8,
    activatedDaysAgo: 40,
    perDay: 12,
    units: one,
  },
  {
    organization: 'Lakeside Pharmacy',
    agent: 'scheduler',
    status: 'active',
    health: 98,
    lastActiveMinutesAgo: 5,
    activatedDaysAgo: 40,
    perDay: 6,
    units: one,
  },
];

/** The demo's API key: the house's, so it reaches every demo organization. */
const DEMO_KEY = { name: 'Demo runtime', scopes: [...API_SCOPES] };

export const DAY_MS = 86_400_000;

export interface DemoSignIn {
  email: string;
  role: string;
  organization: string;
}

export class DemoAlreadySeededError extends Error {}

/** A demo organization as created, parents before their children. */
export interface DemoOrganization {
  id: string;
  name: string;
  type: OrgType;
  parentId: string;
  agentLimit: number;
  credits: DemoOrg['credits'];
}

export interface SeededDemo {
  password: string;
  signIns: DemoSignIn[];
  house: { id: string; name: string };
  /** The house's first admin, who stands for the demo's writes (created_by). */
  houseAdminId: string | null;
  organizations: DemoOrganization[];
  /** Agent type ids by code. */
  agentTypes: Map<string, string>;
  activations: number;
  /** The demo key: the whole secret is here only; the database keeps its hash. */
  apiKey: { secret: string; prefix: string; organization: string };
  /** The admin with a confirmed authenticator app and its secret (base32), when the seed was given the sealer. */
  mfaAdmin: SeededMfaAdmin | null;
  /** The organization whose people sign in through the local demo provider, when the seed was given its sealer. */
  sso: SeededSso | null;
}

/**
 * Adds the demo hierarchy under the first house, and a user of every role of each type
 * (in the first organization of that type), all sharing one generated password; the agent
 * catalog with prices older than any demo usage, the activations of DEMO_ACTIVATIONS as their
 * runtimes last reported them, and an API key of the house with every scope. One
 * transaction: credits and usage are added afterwards by whoever owns those rules.
 */
export async function seedDemo(
  db: Kysely<DB>,
  options: {
    now?: Date;
    /** Seals the demo admin's authenticator app secret as the server does (its TOTP key); without it, no such admin. */
    totpSealer?: SecretSealer;
    /** Seals the demo provider's client secret as the server does; without it, no provider. */
    identitySealer?: SecretSealer;
  } = {},
): Promise<SeededDemo> {
  const now = options.now ?? new Date();
  const before = (ms: number) => new Date(now.getTime() - ms);
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  return db.transaction().execute(async (trx) => {
    const house = await trx
      .selectFrom('organizations')
      .select(['id', 'name'])
      .where('org_type', '=', 'house')
      .where('deleted_at', 'is', null)
      .orderBy('created_at')
      .limit(1)
      .executeTakeFirst();
    if (!house) throw new Error('No house exists yet: start the server or run db:seed without --demo first.');
    const already = await trx.selectFrom('users').select('id').where('email', 'like', `%@${DEMO_DOMAIN}`).limit(1).executeTakeFirst();
    if (already) throw new DemoAlreadySeededError('The demo data is already in this database.');
    const houseAdmin = await trx
      .selectFrom('users')
      .select('id')
      .where('organization_id', '=', house.id)
      .where('role', '=', 'house_admin')
      .where('deleted_at', 'is', null)
      .orderBy('created_at')
      .limit(1)
      .executeTakeFirst();
    const houseAdminId = houseAdmin?.id ?? null;

    await trx
      .updateTable('organization_billing_settings')
      .set({ activated_agent_limit: 100 })
      .where('organization_id', '=', house.id)
      .execute();

    const firstOfType = new Map<OrgType, { id: string; name: string }>([['house', house]]);
    const organizations: DemoOrganization[] = [];
    async function create(parent: { id: string; type: OrgType }, org: DemoOrg, tx: Transaction<DB>) {
      const row = await tx
        .insertInto('organizations')
        .values({
          name: org.name,
          org_type: org.type,
          parent_org_id: parent.id,
          parent_org_type: parent.type,
          description: `Demo ${org.type.replace('_', ' ')}`,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await tx
        .insertInto('organization_billing_settings')
        .values({ organization_id: row.id, activated_agent_limit: org.agentLimit })
        .execute();
      organizations.push({
        id: row.id,
        name: org.name,
        type: org.type,
        parentId: parent.id,
        agentLimit: org.agentLimit,
        credits: org.credits,
      });
      if (!firstOfType.has(org.type)) firstOfType.set(org.type, { id: row.id, name: org.name });
      for (const child of org.children ?? []) await create({ id: row.id, type: org.type }, child, tx);
    }
    for (const org of DEMO_TREE) await create({ id: house.id, type: 'house' }, org, trx);

    const signIns: DemoSignIn[] = [];
    for (const [type, org] of firstOfType) {
      for (const role of rolesForOrgType(type)) {
        const email = `${role.replaceAll('_', '.')}@${DEMO_DOMAIN}`;
        const [level] = role.split('_').slice(-1);
        await trx
          .insertInto('users')
          .values({
            email,
            password_hash: passwordHash,
            first_name: `Demo ${level}`,
            last_name: org.name,
            role,
            organization_id: org.id,
          })
          .execute();
        signIns.push({ email, role, organization: org.name });
      }
    }

    // The admin with an authenticator app, confirmed: a sign-in asks for a code from it.
    const mfaAdmin = options.totpSealer ? await seedMfaAdmin(trx, { organizations, passwordHash, sealer: options.totpSealer, now }) : null;
    // Single sign-on through a provider on this machine, for one super agency.
    const sso = options.identitySealer ? await seedSso(trx, { organizations, sealer: options.identitySealer, houseAdminId }) : null;

    const agentTypes = new Map<string, string>();
    for (const type of DEMO_AGENT_TYPES) {
      const row = await trx
        .insertInto('agent_types')
        .values({
          code: type.code,
          name: type.name,
          description: type.description,
          kind: type.kind,
          unit: type.unit,
          created_by: houseAdminId,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      agentTypes.set(type.code, row.id);
      await trx
        .insertInto('agent_prices')
        .values(
          type.prices.map((p) => ({
            agent_type_id: row.id,
            effective_from: before(p.daysAgo * DAY_MS),
            price: p.price,
            created_by: houseAdminId,
          })),
        )
        .execute();
    }

    const orgIds = new Map(organizations.map((o) => [o.name, o.id]));
    // The price books, set by each seller's first admin where the demo has one (else the house's).
    for (const row of demoBookPrices()) {
      const sellerId = orgIds.get(row.seller)!;
      const admin = await trx
        .selectFrom('users')
        .select('id')
        .where('organization_id', '=', sellerId)
        .where('role', 'like', '%admin')
        .orderBy('created_at')
        .limit(1)
        .executeTakeFirst();
      await trx
        .insertInto('organization_prices')
        .values({
          organization_id: sellerId,
          agent_type_id: agentTypes.get(row.agent)!,
          price: row.price,
          effective_from: before(row.daysAgo * DAY_MS),
          created_by: admin?.id ?? houseAdminId,
        })
        .execute();
    }
    await trx
      .insertInto('agent_activations')
      .values(
        DEMO_ACTIVATIONS.map((a) => ({
          organization_id: orgIds.get(a.organization)!,
          agent_type_id: agentTypes.get(a.agent)!,
          status: a.status,
          health_score: a.health,
          last_active_at: before(a.lastActiveMinutesAgo * 60_000),
          activated_at: before(a.activatedDaysAgo * DAY_MS),
          activated_by: houseAdminId,
        })),
      )
      .execute();

    // As the API key service makes a key: a fresh prefix and secret, only the hash stored.
    const made = generateKey();
    const key = await trx
      .insertInto('api_keys')
      .values({
        organization_id: house.id,
        name: DEMO_KEY.name,
        prefix: made.prefix,
        secret_hash: made.hash,
        scopes: DEMO_KEY.scopes,
        created_by: houseAdminId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await writeAudit(trx, {
      actorUserId: null,
      organizationId: house.id,
      action: 'api_key.create',
      targetType: 'api_key',
      targetId: key.id,
      details: { name: DEMO_KEY.name, prefix: made.prefix, scopes: DEMO_KEY.scopes },
    });

    return {
      password,
      signIns,
      house,
      houseAdminId,
      organizations,
      agentTypes,
      activations: DEMO_ACTIVATIONS.length,
      apiKey: { secret: made.key, prefix: made.prefix, organization: house.name },
      mfaAdmin,
      sso,
    };
  });
}
