import type { ActivationStatus } from '@console/domain';

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
