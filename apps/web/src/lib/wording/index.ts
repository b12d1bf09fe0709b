import { MESSAGES as DOMAIN_MESSAGES } from '@console/domain';
import { BILLING_WORDING } from './billing';
import { PEOPLE_WORDING } from './people';
import { SESSION_WORDING } from './session';
import { SHELL_WORDING } from './shell';

/**
 * Where the console's words live. Each feature owns the words only it shows, in
 * `features/<feature>/wording.ts`; the words several features, the shell or the shared
 * components show are here, in `lib/wording/`; what the server answers too (refusals, the
 * activity log's sentences, the mail) is in the domain's messages (`packages/domain`), which
 * the server reads as well. Groups are named as in the domain's messages, and a group may be
 * spread over the three: its keys are merged, so a page reads every word through one MESSAGES.
 */

/** Two sets of groups as one: a group only one holds is taken as it is, a group both hold has its keys merged. */
export type MergedGroups<Base, Own> = {
  readonly [G in keyof Base | keyof Own]: G extends keyof Own
    ? G extends keyof Base
      ? Base[G] & Own[G]
      : Own[G]
    : G extends keyof Base
      ? Base[G]
      : never;
};

function mergeGroups<Base extends object, const Own extends Record<string, object>>(base: Base, own: Own): MergedGroups<Base, Own> {
  const merged = { ...base } as Record<string, unknown>;
  for (const [group, words] of Object.entries(own)) merged[group] = { ...(merged[group] as object | undefined), ...words };
  return merged as MergedGroups<Base, Own>;
}

/**
 * Everything the console says that is not one feature's own: the domain's messages with the
 * shared console words merged in, group by group. Shared code (`app/`, `components/`, `lib/`)
 * reads this; a feature reads its own MESSAGES, which adds its words to these.
 */
export const MESSAGES = mergeGroups(DOMAIN_MESSAGES, { ...SESSION_WORDING, ...PEOPLE_WORDING, ...BILLING_WORDING, ...SHELL_WORDING });

/**
 * A feature's MESSAGES: the shared ones with the feature's own words merged in. A key the feature
 * holds is one no other feature and no shared code reads (features never import each other).
 */
export function withFeatureWords<const Own extends Record<string, object>>(own: Own): MergedGroups<typeof MESSAGES, Own> {
  return mergeGroups(MESSAGES, own);
}
