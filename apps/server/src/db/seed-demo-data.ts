import type { AgentKind, OrgType } from '@console/domain';

/**
 * The demo's data: its organizations, the agent catalog with its price history, the sellers'
 * price books (the activations and their usage: seed-demo-activations.ts). `seedDemo` (seed.ts)
 * writes them.
 */

export interface DemoOrg {
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
export const DEMO_TREE: DemoOrg[] = [
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
