/** One figure of a result row: rows are flat so they render as table rows and diff as JSON. */
export type Value = string | number | null;
export type Row = { name: string } & Record<string, Value>;

/** How a column renders in docs/benchmarks.md. */
export type Format = 'text' | 'int' | 'fixed1' | 'fixed2' | 'ms' | 'seconds' | 'bytes';
export interface Column {
  key: string;
  label: string;
  format: Format;
}

export type DatabaseKind = 'pglite' | 'postgresql';

export interface SuiteContext {
  /** The --duration override in seconds, or null for each suite's own default. */
  durationSeconds: number | null;
  /** PGlite always; PostgreSQL too when DATABASE_URL is set. */
  databases: DatabaseKind[];
  /** The PostgreSQL server URL (DATABASE_URL), or null. */
  databaseUrl: string | null;
  flags: { rebuildWeb: boolean };
  log(message: string): void;
}

/** A further table of a suite (e.g. query plans), rendered under the main one. */
export interface Table {
  title: string;
  columns: Column[];
  rows: Row[];
}

/** What a suite found besides its main table: more tables, one-line notes, raw evidence. */
export interface Extras {
  tables?: Table[];
  /** Rendered as a bullet list under the tables. */
  notes?: string[];
  /** Kept in the results file only (plan texts, generation times, ids): not rendered. */
  details?: Record<string, unknown>;
}

export type SuiteOutcome = ({ status: 'ok'; rows: Row[] } & Extras) | { status: 'skipped'; reason: string };

export interface Suite {
  /** Names the results file (bench/results/<name>.json) and the --only value. */
  name: string;
  title: string;
  /** What the figures mean, one paragraph for the doc. */
  about: string;
  columns: Column[];
  run(context: SuiteContext): Promise<SuiteOutcome>;
}

/** bench/results/<suite>.json: self-describing, so the doc renders from these files alone. */
export interface ResultsFile {
  suite: string;
  title: string;
  about: string;
  columns: Column[];
  date: string;
  commit: string;
  node: string;
  cpus: number;
  cpuModel: string;
  status: 'ok' | 'skipped' | 'failed';
  reason: string | null;
  rows: Row[];
  tables?: Table[];
  notes?: string[];
  details?: Record<string, unknown>;
}
