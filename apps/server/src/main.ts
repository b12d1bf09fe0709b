import { pino } from 'pino';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase, type Database } from './db/connection.ts';
import { DataDirInUseError, DataDirUnsafeError, makeDataDirPrivate } from './db/data-dir-lock.ts';
import { ensureFirstHouseAdmin } from './db/bootstrap.ts';
import { migrate } from './db/migrate.ts';
import { DemoAlreadySeededError } from './db/seed.ts';
import { seedDemoWithUsage } from './demo-seed.ts';
import { resolveJwtSecret } from './lib/tokens.ts';
import { reconcile } from './modules/credits/reconcile.ts';

const USAGE = `Usage: main.ts <command>
  serve            migrate, create the first house admin if the database is empty, and serve
  migrate          apply pending migrations
  seed [--demo]    create the first house admin if needed; --demo adds a demo hierarchy with agents,
                   credits, an API key and 30 days of usage
  reconcile        check every balance against the ledger; exits 1 on a difference`;

/** How long a shutdown waits for the requests under way before exiting regardless. */
const SHUTDOWN_GRACE_MS = 10_000;

async function prepare(config: Config, purpose: string): Promise<Database> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, purpose });
  await migrate(database);
  const first = await ensureFirstHouseAdmin(database.db, { email: config.adminEmail, password: config.adminPassword });
  if (first) {
    const lines = [
      '',
      'First house admin created.',
      `  Sign in at: ${config.appUrl}/login`,
      `  Email:      ${first.email}`,
      first.generatedPassword
        ? `  Password:   ${first.generatedPassword}   (shown once; change it after signing in)`
        : '  Password:   the ADMIN_PASSWORD you set',
      '',
    ];
    console.log(lines.join('\n'));
  }
  return database;
}

async function serve(config: Config) {
  const logger = pino({ level: config.logLevel });
  const database = await prepare(config, 'server');
  // A generated secret is kept in the data folder, which only its owner may read.
  if (!config.jwtSecret) makeDataDirPrivate(config.dataDir);
  const app = await buildApp({
    config,
    database,
    jwtSecret: resolveJwtSecret(config.jwtSecret, config.dataDir),
    logger,
  });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down: finishing requests under way');
    // A stuck request (a client that stops sending its body, a query that never returns)
    // must not keep the process alive: after the grace period it exits anyway.
    setTimeout(() => {
      logger.error({ graceMs: SHUTDOWN_GRACE_MS }, 'shutdown grace period over: exiting with requests still running');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    // Fastify stops listening, closes idle keep-alive connections, answers 503 to a new
    // request on a connection still open, and resolves once every connection is closed.
    // A connection whose request finishes now stays open (keep-alive, 72 s) and would hold
    // the close: close each one as soon as it is idle.
    const closeIdle = setInterval(() => app.server.closeIdleConnections(), 100);
    await app.close();
    clearInterval(closeIdle);
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
  console.log(`Organization Console is running at ${config.appUrl} (${database.kind === 'pg' ? 'PostgreSQL' : `embedded database in ${config.dataDir}`})`);
}

async function main(argv: string[]) {
  const [command = 'serve', ...rest] = argv;
  const config = loadConfig();
  switch (command) {
    case 'serve':
      return serve(config);
    case 'migrate': {
      const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, purpose: 'db:migrate' });
      try {
        const applied = await migrate(database);
        console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
      } finally {
        await database.close();
      }
      return;
    }
    case 'seed': {
      const database = await prepare(config, 'db:seed');
      try {
        if (rest.includes('--demo')) {
          const started = Date.now();
          const demo = await seedDemoWithUsage(database.db);
          const tenants = demo.organizations.filter((o) => o.type === 'tenant');
          console.log(`Demo hierarchy added. Every demo user signs in with the password: ${demo.password}`);
          console.table(demo.signIns);
          console.log(
            [
              `Agents: ${demo.agentTypeCount} types, ${demo.activations} activations, ${demo.events} usage events over ${demo.days} days (${demo.charged} credits charged).`,
              ...demo.lowBalance.map((l) => `Below its low-balance threshold: ${l.organization} (${l.balance} < ${l.threshold}).`),
              `API key for ${demo.apiKey.organization} (every scope; shown once, only its hash is stored):`,
              `  ${demo.apiKey.secret}`,
              'Send usage through the machine API while the server runs:',
              `  npm run usage:simulate -- --key ${demo.apiKey.secret} --org ${tenants.map((t) => t.id).join(',')} --agent support-bot,scheduler`,
              `Seeded in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
            ].join('\n'),
          );
        }
      } finally {
        await database.close();
      }
      return;
    }
    case 'reconcile': {
      const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, purpose: 'db:reconcile' });
      try {
        await migrate(database);
        const report = await reconcile(database.db);
        console.log(JSON.stringify(report, null, 2));
        if (!report.ok) process.exitCode = 1;
      } finally {
        await database.close();
      }
      return;
    }
    default:
      console.error(USAGE);
      process.exitCode = 2;
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirInUseError || error instanceof DataDirUnsafeError || error instanceof DemoAlreadySeededError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
