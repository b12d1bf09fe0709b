/**
 * npm run bench [-- --only <suite>[,<suite>...]] [--duration <seconds>] [--rebuild-web]
 * Runs the suites of bench/suites, writes bench/results/<suite>.json for each, and
 * regenerates docs/benchmarks.md from every results file.
 */
import { parseArgs } from 'node:util';
import { dropLiveDatabases } from './lib/databases.ts';
import { undoInterrupted } from './lib/interrupt.ts';
import { DOC, renderDoc, writeResults } from './lib/report.ts';
import { killServers } from './lib/server.ts';
import type { SuiteContext } from './lib/types.ts';
import { SUITES } from './suites/index.ts';

const { values } = parseArgs({
  options: {
    only: { type: 'string', multiple: true },
    duration: { type: 'string' },
    'rebuild-web': { type: 'boolean', default: false },
  },
});

const names = SUITES.map((s) => s.name);
const only = values.only
  ?.flatMap((v) => v.split(','))
  .map((v) => v.trim())
  .filter(Boolean);
const unknown = only?.filter((name) => !names.includes(name)) ?? [];
if (unknown.length) {
  console.error(`Unknown suite ${unknown.join(', ')}; suites: ${names.join(', ')}`);
  process.exit(2);
}
const duration = values.duration === undefined ? null : Number(values.duration);
if (duration !== null && !(Number.isInteger(duration) && duration >= 1)) {
  console.error('--duration takes a whole number of seconds (1 or more)');
  process.exit(2);
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // Ctrl-C reaches the bench more than once (from the terminal's process group, and again from
    // each launcher passing it on): the first stops everything; a second must not end the process
    // before that is done (an own PostgreSQL cluster would be left running).
    if (stopping) return;
    stopping = true;
    console.error(`\n${signal}: stopping the bench servers and dropping their databases`);
    void killServers()
      .then(dropLiveDatabases)
      .then(undoInterrupted)
      .finally(() => process.exit(130));
  });
}

const databaseUrl = process.env.DATABASE_URL?.trim() || null;
const context: SuiteContext = {
  durationSeconds: duration,
  databases: databaseUrl ? ['pglite', 'postgresql'] : ['pglite'],
  databaseUrl,
  flags: { rebuildWeb: values['rebuild-web'] },
  log: (message) => console.log(`  ${message}`),
};

let failed = 0;
for (const suite of SUITES.filter((s) => !only || only.includes(s.name))) {
  console.log(`${suite.name}: ${suite.title}`);
  const started = Date.now();
  let path: string;
  try {
    const outcome = await suite.run(context);
    path = writeResults(
      suite,
      outcome.status === 'ok'
        ? { status: 'ok', reason: null, rows: outcome.rows, tables: outcome.tables, notes: outcome.notes, details: outcome.details }
        : { status: 'skipped', reason: outcome.reason, rows: [] },
    );
    if (outcome.status === 'skipped') console.log(`  skipped: ${outcome.reason}`);
    else {
      console.table(
        outcome.rows,
        suite.columns.map((c) => c.key),
      );
      for (const table of outcome.tables ?? [])
        console.table(
          table.rows,
          table.columns.map((c) => c.key),
        );
      for (const note of outcome.notes ?? []) console.log(`  - ${note}`);
    }
  } catch (error) {
    failed++;
    console.error(error);
    path = writeResults(suite, { status: 'failed', reason: error instanceof Error ? error.message : String(error), rows: [] });
  }
  console.log(`  ${((Date.now() - started) / 1000).toFixed(0)} s, wrote ${path}`);
}

renderDoc(names);
console.log(`Updated ${DOC}`);
process.exit(failed ? 1 : 0);
