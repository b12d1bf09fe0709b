import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACTIVATION_STATUSES,
  AGENT_KINDS,
  AGENT_TYPE_STATUSES,
  ALERT_LINE_KINDS,
  ALERT_LINE_WINDOWS,
  API_SCOPES,
  AUDITED_API_KEY_REFUSALS,
  BALANCE_ALERT_KINDS,
  DEBIT_ENTRY_TYPES,
  ENTRY_TYPES,
  INVITATION_STATUSES,
  ORG_STATUSES,
  ORG_TYPES,
  ROLE_LEVELS,
  USAGE_ENTRY_TYPES,
  USAGE_SOURCES,
  SPEND_CAP_SCOPES,
  CAP_WINDOWS,
  TOP_UP_OUTCOMES,
  TOP_UP_REASONS,
  USER_STATUSES,
  WEBHOOK_DELIVERY_STATES,
  WEBHOOK_DISABLED_REASONS,
  WEBAUTHN_CHALLENGE_PURPOSES,
  SESSION_METHODS,
  WEBHOOK_EVENT_ROW_TYPES,
  INVOICE_KINDS,
  INVOICE_LINE_KINDS,
  PAYMENT_METHODS,
} from '@console/domain';
import { freshDatabase } from '../test/harness.ts';
import type { Database } from './connection.ts';

/**
 * schema.ts is written by hand for its types (the domain's unions, exact numbers as strings);
 * these tests hold it, and the domain's value lists, to the database the migrations build.
 */
let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(async () => {
  await database?.close();
});

/** The runner's own bookkeeping, which the application never queries through Kysely. */
const BOOKKEEPING = new Set(['schema_migrations', 'schema_rules']);

interface DeclaredColumn {
  /** The type a select gives, as written: `ColumnType<S, …>` and `Generated<S>` read as S. */
  select: string;
}

/** schema.ts, which declares `DB`, and the files holding its tables' interfaces and column types. */
const SCHEMA_FILES = ['schema.ts', 'schema-access.ts', 'schema-money.ts', 'schema-billing.ts', 'schema-columns.ts'];

/** The tables of `interface DB` in schema.ts and each table interface's columns. */
function declaredTables(): Map<string, Map<string, DeclaredColumn>> {
  const aliases = new Map<string, ts.TypeNode>();
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  for (const file of SCHEMA_FILES) {
    const path = fileURLToPath(new URL(`./${file}`, import.meta.url));
    ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true).forEachChild((node) => {
      if (ts.isInterfaceDeclaration(node)) interfaces.set(node.name.text, node);
      if (ts.isTypeAliasDeclaration(node)) aliases.set(node.name.text, node.type);
    });
  }
  const textOf = (node: ts.Node) => node.getText(node.getSourceFile());
  const selectType = (node: ts.TypeNode): string => {
    if (ts.isTypeReferenceNode(node)) {
      const name = textOf(node.typeName);
      if ((name === 'ColumnType' || name === 'Generated') && node.typeArguments?.[0]) return selectType(node.typeArguments[0]);
      const alias = aliases.get(name);
      if (alias && (name === 'Timestamp' || name === 'NullableTimestamp')) return selectType(alias);
    }
    return textOf(node);
  };
  const tables = new Map<string, Map<string, DeclaredColumn>>();
  for (const member of interfaces.get('DB')!.members) {
    if (!ts.isPropertySignature(member) || !member.type) continue;
    const table = interfaces.get(textOf(member.type))!;
    const columns = new Map<string, DeclaredColumn>();
    for (const column of table.members) {
      if (ts.isPropertySignature(column) && column.type) columns.set(textOf(column.name), { select: selectType(column.type) });
    }
    tables.set(textOf(member.name), columns);
  }
  return tables;
}

/** The kind of value a column's TypeScript type says a select gives. */
function kindOf(type: string): { kind: string; nullable: boolean } {
  const parts = type.split('|').map((part) => part.trim());
  const nullable = parts.includes('null');
  const rest = parts.filter((part) => part !== 'null');
  const kind = rest.every((part) => part.endsWith('[]'))
    ? 'array'
    : rest.every((part) => part === 'Uint8Array')
      ? 'bytes'
      : rest.every((part) => part === 'string' || /^'.*'$/.test(part) || (/^[A-Z]\w*$/.test(part) && part !== 'Date'))
        ? 'string'
        : rest.join(' | ');
  return { kind, nullable };
}

/** What the drivers give for each PostgreSQL type (numeric, int8, date and timestamps as exact strings). */
const KIND_OF_DATA_TYPE: Record<string, string> = {
  uuid: 'string',
  text: 'string',
  numeric: 'string',
  bigint: 'string',
  date: 'string',
  integer: 'number',
  smallint: 'number',
  boolean: 'boolean',
  'timestamp with time zone': 'string',
  jsonb: 'unknown',
  bytea: 'bytes',
  ARRAY: 'array',
};

describe('db/schema.ts', () => {
  it('declares exactly the tables and columns of the migrated database, with their nullability and kind of value', async () => {
    const { rows } = await sql<{ table_name: string; column_name: string; data_type: string; is_nullable: 'YES' | 'NO' }>`
      select table_name, column_name, data_type, is_nullable from information_schema.columns
      where table_schema = current_schema()
        -- A partition is its table's (usage_events by month), declared once.
        and table_name not in (select relname from pg_class where relispartition)
      order by table_name, ordinal_position`.execute(database.db);
    const actual = new Map<string, Map<string, { data_type: string; nullable: boolean }>>();
    for (const row of rows.filter((r) => !BOOKKEEPING.has(r.table_name))) {
      if (!actual.has(row.table_name)) actual.set(row.table_name, new Map());
      actual.get(row.table_name)!.set(row.column_name, { data_type: row.data_type, nullable: row.is_nullable === 'YES' });
    }
    const declared = declaredTables();
    expect([...declared.keys()].sort()).toEqual([...actual.keys()].sort());

    const differences: string[] = [];
    for (const [table, columns] of actual) {
      const typed = declared.get(table)!;
      expect([...typed.keys()].sort(), `columns of ${table}`).toEqual([...columns.keys()].sort());
      for (const [column, { data_type, nullable }] of columns) {
        const { kind, nullable: typedNullable } = kindOf(typed.get(column)!.select);
        const expected = KIND_OF_DATA_TYPE[data_type];
        if (!expected) differences.push(`${table}.${column}: no kind known for ${data_type}`);
        // jsonb is read as unknown, which already admits null.
        else if (kind !== expected)
          differences.push(`${table}.${column}: ${data_type} is read as ${expected}, declared ${typed.get(column)!.select}`);
        if (expected !== 'unknown' && typedNullable !== nullable)
          differences.push(
            `${table}.${column}: ${nullable ? 'nullable' : 'not null'} in the database, declared ${typed.get(column)!.select}`,
          );
      }
    }
    expect(differences).toEqual([]);
  });
});

/**
 * The values each constrained column may hold, as the domain lists them. The database's CHECK
 * must allow exactly these.
 */
const COLUMN_VALUES: Record<string, readonly string[]> = {
  'organizations.org_type': ORG_TYPES,
  'organizations.status': ORG_STATUSES,
  'users.status': USER_STATUSES,
  // `expired` is read from a pending invitation's expiry, never stored.
  'invitations.status': INVITATION_STATUSES.filter((status) => status !== 'expired'),
  'credit_ledger_entries.entry_type': ENTRY_TYPES,
  'credit_usage_days.entry_type': USAGE_ENTRY_TYPES,
  'agent_types.kind': AGENT_KINDS,
  'agent_types.status': AGENT_TYPE_STATUSES,
  'agent_activations.status': ACTIVATION_STATUSES,
  'agent_activations.status_audited': ACTIVATION_STATUSES,
  'api_keys.scopes': API_SCOPES,
  'api_keys.refusal_audited_reason': AUDITED_API_KEY_REFUSALS,
  'balance_alerts.kind': BALANCE_ALERT_KINDS,
  'alert_lines.kind': ALERT_LINE_KINDS,
  'alert_lines.cap_window': ALERT_LINE_WINDOWS,
  'usage_events.source': USAGE_SOURCES,
  'usage_event_ids.source': USAGE_SOURCES,
  'one_time_tokens.purpose': ['password_reset'],
  'spend_cap_months.scope': SPEND_CAP_SCOPES,
  'spend_cap_months.kind': CAP_WINDOWS,
  'top_up_requests.reason': TOP_UP_REASONS,
  'top_up_requests.outcome': TOP_UP_OUTCOMES,
  'webhook_events.type': WEBHOOK_EVENT_ROW_TYPES,
  'webhook_deliveries.state': WEBHOOK_DELIVERY_STATES,
  'webhook_endpoints.disabled_reason': WEBHOOK_DISABLED_REASONS,
  'webauthn_challenges.purpose': WEBAUTHN_CHALLENGE_PURPOSES,
  'refresh_sessions.method': SESSION_METHODS,
  'invoices.kind': INVOICE_KINDS,
  'invoice_lines.kind': INVOICE_LINE_KINDS,
  'invoice_payments.method': PAYMENT_METHODS,
};

/** Role patterns: every `{type}_{level}` of the domain and nothing else (users may also hold the plain `admin`). */
const ROLE_PATTERN = `(${ORG_TYPES.join('|')})_(${ROLE_LEVELS.join('|')})`;
const CHECK_PATTERNS: Record<string, string> = {
  'users.users_role_check': `^(${ROLE_PATTERN}|admin)$`,
  'invitations.invitations_role_check': `^${ROLE_PATTERN}$`,
};

describe('CHECK constraints', () => {
  let checks: { table: string; name: string; def: string }[];
  beforeAll(async () => {
    const { rows } = await sql<{ table: string; name: string; def: string }>`
      select c.conrelid::regclass::text as table, c.conname as name, pg_get_constraintdef(c.oid) as def
      from pg_constraint c join pg_namespace n on n.oid = c.connamespace
      where c.contype = 'c' and n.nspname = current_schema() and c.conrelid <> 0
        and not exists (select 1 from pg_class r where r.oid = c.conrelid and r.relispartition)
      order by 1, 2`.execute(database.db);
    checks = rows;
  });

  const literals = (text: string) => [...text.matchAll(/'([^']*)'::text/g)].map((m) => m[1]!);
  /** The set a constraint of one list allows a column: `column = ANY (ARRAY[...])`, `column <@ ARRAY[...]` or `column = '...'` alone. */
  function allowed(table: string, column: string): string[] | null {
    // The column's own constraint (`<table>_<column>_check`) first: another may name a few of its values.
    const own = `${table}_${column}_check`;
    const ordered = [...checks].sort((x, y) => Number(y.name === own) - Number(x.name === own));
    for (const { def } of ordered.filter((check) => check.table === table && check.def.split('ARRAY[').length <= 2)) {
      const list = new RegExp(String.raw`^CHECK \(.*\(${column} (?:= ANY \(|<@ )ARRAY\[([^\]]*)\]`).exec(def);
      if (list) return literals(list[1]!);
      const single = new RegExp(String.raw`^CHECK \(\(${column} = '([^']*)'::text\)\)$`).exec(def);
      if (single) return [single[1]!];
    }
    return null;
  }

  it('allow each constrained column exactly the values of its domain list', () => {
    for (const [key, values] of Object.entries(COLUMN_VALUES)) {
      const [table, column] = key.split('.') as [string, string];
      expect(allowed(table, column)?.sort(), key).toEqual([...values].sort());
    }
  });

  it("name only values of their table's domain lists, wherever else they compare one", () => {
    const stray: string[] = [];
    for (const check of checks.filter((c) => !c.def.includes('~'))) {
      const known = new Set(Object.entries(COLUMN_VALUES).flatMap(([key, values]) => (key.startsWith(`${check.table}.`) ? values : [])));
      for (const value of literals(check.def)) if (!known.has(value)) stray.push(`${check.table}.${check.name}: '${value}'`);
    }
    expect(stray).toEqual([]);
  });

  it('split entry types by sign as the domain does', () => {
    const sign = checks.find((check) => check.name === 'credit_ledger_entries_check')!;
    const [debits, credits] = [...sign.def.matchAll(/ARRAY\[([^\]]*)\]/g)].map((m) => literals(m[1]!).sort());
    expect(sign.def).toMatch(/ARRAY\[[^\]]*\]\)\) AND \(amount < /);
    expect(debits).toEqual([...DEBIT_ENTRY_TYPES].sort());
    expect(credits).toEqual(ENTRY_TYPES.filter((type) => !(DEBIT_ENTRY_TYPES as readonly string[]).includes(type)).sort());
  });

  it('match roles with the pattern the domain roles make', () => {
    const found = Object.fromEntries(
      checks
        .filter((check) => check.def.includes('~') && `${check.table}.${check.name}` in CHECK_PATTERNS)
        .map((check) => [`${check.table}.${check.name}`, /~ '([^']*)'::text/.exec(check.def)?.[1]]),
    );
    expect(found).toEqual(CHECK_PATTERNS);
  });
});
