import type { Suite } from '../lib/types.ts';
import { activity } from './activity.ts';
import { allocations } from './allocations.ts';
import { ledger } from './ledger.ts';
import { organizations } from './organizations.ts';
import { profile } from './profile.ts';
import { scaleOut } from './scale-out.ts';
import { signIn } from './sign-in.ts';
import { usage } from './usage.ts';
import { usageWebhooks } from './usage-webhooks.ts';
import { usageGrowth } from './usage-growth.ts';
import { usersMe } from './users-me.ts';
import { webSize } from './web-size.ts';
import { webhooks } from './webhooks.ts';

/** Every suite, in the order they run and appear in docs/benchmarks.md. Add new ones here. */
export const SUITES: Suite[] = [
  signIn,
  usersMe,
  profile,
  webSize,
  organizations,
  ledger,
  allocations,
  usage,
  usageWebhooks,
  usageGrowth,
  activity,
  webhooks,
  scaleOut,
];
