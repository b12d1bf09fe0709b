import { USAGE_WINDOW } from '@console/domain';
import { DAY_MS, DEMO_ACTIVATIONS, DEMO_AGENT_TYPES, demoBookPrices, type DemoOrganization } from './db/seed.ts';
import type { UsageEvent } from './modules/usage/usage.service.ts';

/** Days of usage, today included. */
export const DEMO_USAGE_DAYS = 30;

/** A small deterministic generator (mulberry32): the same demo on every run. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** An exact decimal string with up to `places` decimals, scaled to an integer of `places` digits. */
export function scaled(value: string, places: number): bigint {
  const [whole, fraction = ''] = value.split('.');
  return BigInt(whole!) * 10n ** BigInt(places) + BigInt(fraction.padEnd(places, '0').slice(0, places) || '0');
}

export interface DemoUsage {
  events: UsageEvent[];
  /** What the events charge each organization in all, in cents: per agent type, the whole cents of its exact cost. */
  chargeCents: Map<string, bigint>;
  /** The same per calendar month (UTC, 'YYYY-MM') of occurrence, per agent type's whole cents in the month: near enough to size a cap. */
  monthCents: Map<string, Map<string, bigint>>;
}

/**
 * Each activation's events over the last DEMO_USAGE_DAYS UTC days: fewer at weekends, a
 * little more each week, none before it was activated or after its runtime was last active.
 * Sorted by time, as a runtime would report them.
 */
export function demoUsage(organizations: DemoOrganization[], now: Date): DemoUsage {
  const next = random(20_240_601);
  const orgIds = new Map(organizations.map((o) => [o.name, o.id]));
  const prices = new Map(
    DEMO_AGENT_TYPES.map((t) => [t.code, t.prices.map((p) => ({ from: now.getTime() - p.daysAgo * DAY_MS, price: scaled(p.price, 4) }))]),
  );
  const books = demoBookPrices().map((b) => ({ ...b, from: now.getTime() - b.daysAgo * DAY_MS, price: scaled(b.price, 4) }));
  const byId = new Map(organizations.map((o) => [o.id, o]));
  // The sellers above an organization (its ancestors below the house), by name.
  const sellersOf = (id: string) => {
    const sellers: string[] = [];
    for (let at = byId.get(byId.get(id)!.parentId); at; at = byId.get(at.parentId)) sellers.push(at.name);
    return sellers;
  };
  // An organization's own price, as usage_record takes it for a key's event: the greatest of
  // the catalog price and its sellers' book prices, each in force at the later of the event's
  // occurrence and its arrival less the price grace (the demo's events all arrive now).
  const graceFrom = now.getTime() - USAGE_WINDOW.priceGraceSeconds * 1000;
  const priceAt = (organizationId: string, agent: string, occurred: number) => {
    const time = Math.max(occurred, graceFrom);
    let price = prices
      .get(agent)!
      .filter((p) => p.from <= time)
      .at(-1)!.price;
    for (const seller of sellersOf(organizationId)) {
      const book = books.filter((b) => b.seller === seller && b.agent === agent && b.from <= time).at(-1);
      if (book && book.price > price) price = book.price;
    }
    return price;
  };
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const events: UsageEvent[] = [];
  // Exact costs, in hundred-millionths of a credit (units and prices both have four places).
  const costs = new Map<string, bigint>();
  const monthCosts = new Map<string, bigint>();
  for (const activation of DEMO_ACTIVATIONS) {
    const organizationId = orgIds.get(activation.organization)!;
    const activatedAt = now.getTime() - activation.activatedDaysAgo * DAY_MS;
    const lastActive = now.getTime() - activation.lastActiveMinutesAgo * 60_000;
    const costKey = `${organizationId}/${activation.agent}`;
    for (let daysAgo = DEMO_USAGE_DAYS - 1; daysAgo >= 0; daysAgo--) {
      const dayStart = today - daysAgo * DAY_MS;
      const begin = Math.max(dayStart, activatedAt);
      const end = Math.min(dayStart + DAY_MS, lastActive);
      if (end <= begin) continue;
      const weekday = new Date(dayStart).getUTCDay();
      const weekend = weekday === 0 || weekday === 6 ? 0.55 : 1;
      const growth = 0.8 + (0.3 * (DEMO_USAGE_DAYS - 1 - daysAgo)) / (DEMO_USAGE_DAYS - 1);
      const count = Math.round(activation.perDay * weekend * growth * (0.8 + 0.4 * next()) * ((end - begin) / DAY_MS));
      const day = new Date(dayStart).toISOString().slice(0, 10);
      for (let n = 1; n <= count; n++) {
        const time = begin + Math.floor(next() * (end - begin));
        const { min, max, places } = activation.units;
        const units = Math.max(min + next() * (max - min), 10 ** -places).toFixed(places);
        events.push({
          id: `demo-${activation.agent}-${day}-${String(n).padStart(4, '0')}`,
          organization_id: organizationId,
          agent: activation.agent,
          units,
          occurred_at: new Date(time).toISOString(),
        });
        const cost = scaled(units, 4) * priceAt(organizationId, activation.agent, time);
        costs.set(costKey, (costs.get(costKey) ?? 0n) + cost);
        const monthKey = `${costKey}/${day.slice(0, 7)}`;
        monthCosts.set(monthKey, (monthCosts.get(monthKey) ?? 0n) + cost);
      }
    }
  }
  events.sort((a, b) => a.occurred_at.localeCompare(b.occurred_at));
  const chargeCents = new Map<string, bigint>();
  for (const [key, cost] of costs) {
    const organizationId = key.split('/')[0]!;
    chargeCents.set(organizationId, (chargeCents.get(organizationId) ?? 0n) + cost / 1_000_000n);
  }
  const monthCents = new Map<string, Map<string, bigint>>();
  for (const [key, cost] of monthCosts) {
    const [organizationId, , month] = key.split('/') as [string, string, string];
    const months = monthCents.get(organizationId) ?? new Map<string, bigint>();
    months.set(month, (months.get(month) ?? 0n) + cost / 1_000_000n);
    monthCents.set(organizationId, months);
  }
  return { events, chargeCents, monthCents };
}
