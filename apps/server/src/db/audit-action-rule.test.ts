import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITY_ACTIONS } from '@console/domain';
import type { Database } from './connection.ts';
import { AUDIT_ACTION_RULE, auditActionRuleText } from './audit-action-rule.ts';
import { listRules } from './migrate.ts';
import { freshDatabase } from '../test/harness.ts';

/**
 * `audit_log.action` holds only the domain's actions: its CHECK calls `audit_action_known`, a
 * rule the migrator writes from `ACTIVITY_ACTIONS`, so every writer (writeAudit, the SQL
 * functions, raw statements) is held to the same list, and a new action needs only the
 * domain's change.
 */

const SERVER_SRC = fileURLToPath(new URL('../', import.meta.url));

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(async () => {
  await database.close();
});

const ROLLED_BACK = new Error('rolled back');

/**
 * An audit row with this action, written straight to the table and rolled back (its empty
 * details are not the action's): the error it met, or 'stored'.
 */
async function store(action: string): Promise<string> {
  try {
    await database.db.transaction().execute(async (trx) => {
      await sql`insert into audit_log (action, target_type, details) values (${action}, 'user', '{}'::jsonb)`.execute(trx);
      throw ROLLED_BACK;
    });
  } catch (error) {
    if (error === ROLLED_BACK) return 'stored';
    const e = error as { code?: string; constraint?: string };
    return `${e.code} ${e.constraint}`;
  }
  return 'not reached';
}

describe('the audit actions rule', () => {
  it('is a rule the migrator writes from the domain list, among the functions by name', () => {
    const rules = listRules();
    expect(rules.find((rule) => rule.name === AUDIT_ACTION_RULE)?.sql).toBe(auditActionRuleText());
    const functions = rules.filter((rule) => rule.name.startsWith('functions/')).map((rule) => rule.name);
    expect(functions).toEqual([...functions].sort());
  });

  it('is refused beside a file of the same name, which would be a second copy of the list', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rules-'));
    try {
      mkdirSync(join(dir, 'functions'));
      writeFileSync(join(dir, 'functions', 'audit_action_known.sql'), auditActionRuleText());
      expect(() => listRules(dir)).toThrow(/functions\/audit_action_known is written from its list: remove its file/);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('knows every action of the list, and nothing else', async () => {
    const { rows } = await sql<{ action: string; known: boolean }>`
      select a as action, audit_action_known(a) as known from unnest(${[...ACTIVITY_ACTIONS, 'no.such_action', 'auth.sign_in ', '']}::text[]) a`.execute(
      database.db,
    );
    expect(rows.filter((r) => !r.known).map((r) => r.action)).toEqual(['no.such_action', 'auth.sign_in ', '']);
  });

  it('lets audit_log store a known action and refuses an unknown one', async () => {
    expect(await store('user.update')).toBe('stored');
    expect(await store('organization.renamed')).toBe('23514 audit_log_action_known');
    expect(await store('User.update')).toBe('23514 audit_log_action_known');
  });
});

/** The server's production files (tests and migrations aside: a migration is history). */
function productionFiles(dir = SERVER_SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ['test', 'migrations'].includes(entry.name) ? [] : productionFiles(path);
    return /\.(ts|sql)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : [];
  });
}

describe('the SQL writers of the audit log', () => {
  it('name only actions of the list', () => {
    const writers: string[] = [];
    const unknown: string[] = [];
    for (const file of productionFiles()) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/insert into audit_log\b/gi)) {
        // The statement: up to its end in SQL, the end of the template in TypeScript, or the
        // next part of the WITH query it is a part of.
        const rest = text.slice(match.index);
        const end = rest.search(/;|`|\)\s*,\s*(?:--[^\n]*\s*)*\w+\s+as\s+(?:materialized\s+)?\(/i);
        const statement = end < 0 ? rest : rest.slice(0, end);
        const name = relative(SERVER_SRC, file);
        writers.push(name);
        for (const [, action] of statement.matchAll(/'([a-z_]+\.[a-z_]+)'/g)) {
          if (!(ACTIVITY_ACTIONS as readonly string[]).includes(action!)) unknown.push(`${name}: ${action}`);
        }
      }
    }
    // The scan finds the writers it is meant to check (were the pattern wrong, it would pass on nothing).
    expect(writers).toEqual(
      expect.arrayContaining([join('db', 'rules', 'functions', 'credits_allocate.sql'), join('modules', 'billing', 'top-ups.ts')]),
    );
    expect(unknown).toEqual([]);
  });
});
