import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ACTIVITY_ACTIONS, AUDIT_DETAILS } from '@console/domain';

/**
 * The webhook trigger (`rules/triggers/webhook_events_from_audit.sql`) turns audit rows into
 * events by reading their details: it may read only what the domain documents for the
 * action (`AUDIT_DETAILS`), so a writer that renames a key fails to compile or to parse
 * instead of silently sending an event without it. This reads the trigger's text: for each
 * `when '<action>'` branch of its `case new.action`, every path it reads from the details
 * (`d ->> 'x'`, `d -> 'x' ->> 'y'`) must be a field of that action's schema.
 */

const TRIGGER_FILE = fileURLToPath(new URL('./rules/triggers/webhook_events_from_audit.sql', import.meta.url));

/** The branches of the trigger's `case new.action`: the actions each names and the paths it reads from `d`. */
export function triggerReads(text: string): { actions: string[]; paths: string[][] }[] {
  const headers = [...text.matchAll(/^\s*when ('[^']+'(?:\s*,\s*'[^']+')*) then\s*$/gm)];
  return headers.map((header, i) => {
    const end = headers[i + 1]?.index ?? text.search(/^\s*else\s*$/m);
    const body = text.slice(header.index + header[0].length, end < 0 ? undefined : end);
    const actions = [...header[1]!.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
    const paths = [...body.matchAll(/\bd((?:\s*->>?\s*'[^']+')+)/g)].map((m) => [...m[1]!.matchAll(/'([^']+)'/g)].map((k) => k[1]!));
    return { actions, paths };
  });
}

/** The definition of a zod schema, as its internals keep it. */
type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; options?: z.ZodType[]; shape?: Record<string, z.ZodType> };
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Whether `path` names a field of `schema`: each key a key of an object shape (of some member, for a union). */
export function documents(schema: z.ZodType, path: string[]): boolean {
  const def = defOf(schema);
  if (def.innerType) return documents(def.innerType, path);
  if (def.type === 'pipe' && def.in) return documents(def.in, path);
  if (def.type === 'union') return def.options!.some((option) => documents(option, path));
  if (path.length === 0) return true;
  if (def.type !== 'object') return false;
  const field = def.shape![path[0]!];
  return field !== undefined && documents(field, path.slice(1));
}

describe('the webhook trigger on the audit log', () => {
  const text = readFileSync(TRIGGER_FILE, 'utf8');
  const branches = triggerReads(text);

  it('has the branches this test reads, of known actions, and fires for exactly those', () => {
    const actions = branches.flatMap((b) => b.actions);
    // Were the pattern wrong, the checks below would pass on nothing.
    expect(actions).toEqual(expect.arrayContaining(['agent.activate', 'top_up.made', 'mfa_policy.changed']));
    expect(actions.filter((a) => !(ACTIVITY_ACTIONS as readonly string[]).includes(a))).toEqual([]);
    const fires = /when \(new\.action in \(([^)]*)\)\)/.exec(text)?.[1] ?? '';
    expect([...fires.matchAll(/'([^']+)'/g)].map((m) => m[1]).sort()).toEqual([...actions].sort());
  });

  it('reads only fields the domain documents for each action', () => {
    const undocumented: string[] = [];
    for (const { actions, paths } of branches) {
      for (const action of actions) {
        const schema = AUDIT_DETAILS[action as keyof typeof AUDIT_DETAILS];
        for (const path of paths) if (!documents(schema, path)) undocumented.push(`${action}: ${path.join('.')}`);
      }
    }
    expect(branches.flatMap((b) => b.paths).length).toBeGreaterThan(10);
    expect(undocumented).toEqual([]);
  });
});
