import { MESSAGES as SHARED, type MergedGroups } from '../apps/web/src/lib/wording/index.ts';
import { MESSAGES as account } from '../apps/web/src/features/account/wording.ts';
import { MESSAGES as agents } from '../apps/web/src/features/agents/wording.ts';
import { MESSAGES as apiKeys } from '../apps/web/src/features/api-keys/wording.ts';
import { MESSAGES as auth } from '../apps/web/src/features/auth/wording.ts';
import { MESSAGES as billing } from '../apps/web/src/features/billing/wording.ts';
import { MESSAGES as credits } from '../apps/web/src/features/credits/wording.ts';
import { MESSAGES as dashboard } from '../apps/web/src/features/dashboard/wording.ts';
import { MESSAGES as debug } from '../apps/web/src/features/debug/wording.ts';
import { MESSAGES as identity } from '../apps/web/src/features/identity/wording.ts';
import { MESSAGES as invoices } from '../apps/web/src/features/invoices/wording.ts';
import { MESSAGES as organizations } from '../apps/web/src/features/organizations/wording.ts';
import { MESSAGES as pricing } from '../apps/web/src/features/pricing/wording.ts';
import { MESSAGES as resources } from '../apps/web/src/features/resources/wording.ts';
import { MESSAGES as settings } from '../apps/web/src/features/settings/wording.ts';
import { MESSAGES as users } from '../apps/web/src/features/users/wording.ts';
import { MESSAGES as webhooks } from '../apps/web/src/features/webhooks/wording.ts';

/** Two sets of groups as one, group by group (a key is in one feature only, so none is overwritten). */
function merge<A extends object, B extends object>(a: A, b: B): MergedGroups<A, B> {
  const merged = { ...a } as Record<string, object>;
  for (const [group, words] of Object.entries(b)) merged[group] = { ...merged[group], ...(words as object) };
  return merged as MergedGroups<A, B>;
}

/**
 * Everything the console says, as the journeys look for it on screen: the shared words and every
 * feature's own (each feature's file holds only what that feature shows; a journey crosses them).
 */
export const MESSAGES = merge(
  merge(
    merge(
      merge(
        merge(
          merge(
            merge(
              merge(
                merge(
                  merge(merge(merge(merge(merge(merge(merge(SHARED, account), agents), apiKeys), auth), billing), credits), dashboard),
                  debug,
                ),
                identity,
              ),
              invoices,
            ),
            organizations,
          ),
          pricing,
        ),
        resources,
      ),
      settings,
    ),
    users,
  ),
  webhooks,
);
