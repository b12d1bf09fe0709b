import { grantTermsSchema, hasGrantTerms, type GrantTerms } from '@console/domain';
import { z } from 'zod';
import { formatDateTime } from '@/lib/dates';
import { MESSAGES } from './wording';

const t = MESSAGES.grantPages.terms;

/**
 * The terms fields of a form that adds credits, as typed: whether the Terms section is open
 * (closed: no terms), the expiry as a datetime-local value (the viewer's time zone), every
 * agent or some, the agent types by code, and the priority as text.
 */
export const termsFieldsSchema = z
  .object({
    with_terms: z.boolean(),
    expires_at: z.string(),
    scope: z.enum(['every', 'some']),
    agent_types: z.array(z.string()),
    priority: z.string().trim(),
  })
  // Checked by the domain's own schema (the one the server reads), its messages on the fields.
  .transform((fields, ctx): GrantTerms | null => {
    if (!fields.with_terms) return null;
    let priority: number | undefined;
    if (fields.priority !== '') {
      if (!/^\d+$/.test(fields.priority)) {
        ctx.addIssue({ code: 'custom', message: t.priorityInvalid, path: ['priority'] });
        return z.NEVER;
      }
      priority = Number(fields.priority);
    }
    const expiry = fields.expires_at === '' ? null : new Date(fields.expires_at);
    const parsed = grantTermsSchema.safeParse({
      expires_at: expiry && !Number.isNaN(expiry.getTime()) ? expiry.toISOString() : null,
      agent_types: fields.scope === 'some' ? fields.agent_types : null,
      priority,
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path.slice(0, 1) });
      return z.NEVER;
    }
    return hasGrantTerms(parsed.data) ? parsed.data : null;
  });
export type TermsFieldsInput = z.input<typeof termsFieldsSchema>;

/** The terms section closed and empty. */
export const NO_TERMS: TermsFieldsInput = { with_terms: false, expires_at: '', scope: 'every', agent_types: [], priority: '' };

/** The fields a server's message may name (`terms.expires_at`…), as the form names them. */
export const TERMS_FIELDS = ['terms.expires_at', 'terms.agent_types', 'terms.priority'] as const;

/** The review step's line about the terms, agent types by name where the catalog names them. */
export function termsSummary(terms: GrantTerms, names: ReadonlyMap<string, string>): string {
  const parts: string[] = [];
  if (terms.expires_at) parts.push(t.reviewExpires(formatDateTime(terms.expires_at)));
  if (terms.agent_types?.length) parts.push(t.reviewAgents(terms.agent_types.map((code) => names.get(code) ?? code).join(', ')));
  if (terms.priority) parts.push(t.reviewPriority(terms.priority));
  return t.review(parts);
}
