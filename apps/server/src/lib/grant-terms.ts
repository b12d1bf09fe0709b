import type { Kysely } from 'kysely';
import { GRANT_MESSAGES, hasGrantTerms, type GrantTerms, type TopUpTermsInput, type TopUpTermsView } from '@console/domain';
import type { DB } from '../db/schema.ts';
import { RuleError } from './errors.ts';

/** Terms as the ledger stores them: agent types by id. The granting organization is added by the writer. */
export interface StoredTerms {
  expires_at: string | null;
  agent_type_ids: string[] | null;
  priority: number;
}

/**
 * The terms a request gave, with its agent type codes made ids; null for terms that say
 * nothing (open credits). An unknown code is refused with 422, naming it.
 */
export async function storedTerms(db: Kysely<DB>, terms: GrantTerms | null | undefined): Promise<StoredTerms | null> {
  if (!hasGrantTerms(terms)) return null;
  return { expires_at: terms.expires_at ?? null, agent_type_ids: await agentTypeIds(db, terms.agent_types), priority: terms.priority ?? 0 };
}

/** An automatic top-up's terms as organization_billing_settings.top_up_terms keeps them. */
export interface StoredTopUpTerms {
  expires_after_days: number | null;
  agent_type_ids: string[] | null;
  priority: number;
}

export async function storedTopUpTerms(db: Kysely<DB>, terms: TopUpTermsInput | null | undefined): Promise<StoredTopUpTerms | null> {
  if (!hasGrantTerms(terms)) return null;
  return {
    expires_after_days: terms.expires_after_days ?? null,
    agent_type_ids: await agentTypeIds(db, terms.agent_types),
    priority: terms.priority ?? 0,
  };
}

/** Stored top-up terms as the spend controls show them: agent types by code and name. */
export async function topUpTermsView(db: Kysely<DB>, stored: StoredTopUpTerms | null): Promise<TopUpTermsView | null> {
  if (!stored) return null;
  let agents: TopUpTermsView['agent_types'] = null;
  if (stored.agent_type_ids?.length) {
    const rows = await db.selectFrom('agent_types').select(['id', 'code', 'name']).where('id', 'in', stored.agent_type_ids).execute();
    agents = rows.map((r) => ({ code: r.code, name: r.name })).sort((a, b) => a.name.localeCompare(b.name));
  }
  return { expires_after_days: stored.expires_after_days, agent_types: agents, priority: stored.priority };
}

/** Agent type codes made ids, in the order given; an unknown code is refused with 422, naming it. */
async function agentTypeIds(db: Kysely<DB>, codes: string[] | null | undefined): Promise<string[] | null> {
  if (!codes?.length) return null;
  const rows = await db.selectFrom('agent_types').select(['id', 'code']).where('code', 'in', codes).execute();
  const byCode = new Map(rows.map((r) => [r.code, r.id]));
  const unknown = codes.find((code) => !byCode.has(code));
  if (unknown) throw new RuleError(GRANT_MESSAGES.unknownAgentType(unknown));
  return codes.map((code) => byCode.get(code)!);
}
