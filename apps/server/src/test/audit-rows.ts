import { sql } from 'kysely';
import { AUDIT_DETAILS, type ActivityAction } from '@console/domain';
import type { Database } from '../db/connection.ts';

/**
 * Every audit row the suites write is held to the domain's schema of its action's details
 * (`AUDIT_DETAILS`): the harness reads a test file's database as it closes it (one select)
 * and fails the file with the rows that do not parse. So a writer, in TypeScript or SQL,
 * that stores a key the schemas do not document, or leaves out one they require, is found by
 * the tests that make it write, whatever path its row took to the table.
 */

interface AuditRow {
  action: string;
  details: unknown;
  rows: number;
}

/** What is wrong with one kind of row: its action, its keys and the issues zod found. */
export interface AuditMismatch {
  action: string;
  keys: string[];
  issue: string;
  rows: number;
}

/** The rows of `database`'s audit log whose details do not parse for their action. */
export async function auditMismatches(database: Database): Promise<AuditMismatch[]> {
  const { rows: present } = await sql<{ ok: boolean }>`select to_regclass('audit_log') is not null as ok`.execute(database.db);
  if (!present[0]?.ok) return [];
  // Equal rows are parsed once: a suite may write thousands of the same usage reports.
  const { rows } = await sql<AuditRow>`
    select action, details, count(*)::int as rows from audit_log group by action, details order by action`.execute(database.db);
  const found = new Map<string, AuditMismatch>();
  for (const row of rows) {
    const schema = Object.hasOwn(AUDIT_DETAILS, row.action) ? AUDIT_DETAILS[row.action as ActivityAction] : undefined;
    const keys = row.details && typeof row.details === 'object' ? Object.keys(row.details).sort() : [];
    let issue: string | null = null;
    if (!schema) issue = 'no schema in AUDIT_DETAILS for this action';
    else {
      const parsed = schema.safeParse(row.details);
      if (!parsed.success) {
        issue = parsed.error.issues.map((i) => `${i.path.join('.') || '(details)'}: ${i.message} (${i.code})`).join('; ');
      }
    }
    if (issue === null) continue;
    const key = `${row.action} ${keys.join(',')} ${issue}`;
    const earlier = found.get(key);
    if (earlier) earlier.rows += row.rows;
    else found.set(key, { action: row.action, keys, issue, rows: row.rows });
  }
  return [...found.values()];
}

/** Throws, naming every mismatch, when a row of `database`'s audit log does not parse. */
export async function assertAuditRowsParse(database: Database): Promise<void> {
  const mismatches = await auditMismatches(database);
  if (mismatches.length === 0) return;
  const lines = mismatches.map((m) => `  ${m.action} {${m.keys.join(', ')}} ×${m.rows}: ${m.issue}`);
  throw new Error(`audit rows whose details do not parse with AUDIT_DETAILS[action]:\n${lines.join('\n')}`);
}
