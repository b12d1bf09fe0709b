// First: the traces (when configured) must start before any module loads the `pg` driver.
import './tracing/start.ts';
import cluster, { type Worker } from 'node:cluster';
import { sql } from 'kysely';
import { pino, type Logger } from 'pino';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { backupCommand, describeBackup, describeRestore, restoreCommand } from './db/backup-commands.ts';
import { BackupError } from './db/backup.ts';
import { claimBackupWindow } from './db/backup-claim.ts';
import { scheduleBackups, type Schedule } from './db/backup-schedule.ts';
import { listenForBackups } from './db/backup-socket.ts';
import { openDatabase, type Database } from './db/connection.ts';
import { DataDirInUseError, DataDirUnsafeError, makeDataDirPrivate } from './db/data-dir-lock.ts';
import { ensureFirstHouseAdmin } from './db/bootstrap.ts';
import { MigrationError, migrate, USAGE_MONTHS_AHEAD, type MigrationRun } from './db/migrate.ts';
import { DEMO_PRICE_BOOKS, DemoAlreadySeededError } from './db/seed.ts';
import { seedDemoWithUsage } from './demo-seed.ts';
import { resolveJwtSecret } from './lib/tokens.ts';
import { secretSealer } from './lib/sealer.ts';
import { reconcile } from './modules/credits/reconcile.ts';
import { parseCommandLine, type CommandLine } from './main-args.ts';
import { aggregateWorkerMetrics } from './lib/metrics/cluster.ts';
import { startOnceADay } from './lib/once-a-day.ts';
import { stopTracing } from './tracing/tracing.ts';

/** How long a shutdown waits for the requests under way before exiting regardless. */
const SHUTDOWN_GRACE_MS = 10_000;

/** One line per kind of change a migration run made, for the operator. */
function describeRun(run: MigrationRun): string[] {
  const list = (names: string[]) => (names.length > 3 ? `${names.length} (${names[0]} … ${names[names.length - 1]})` : names.join(', '));
  return [
    ...(run.adopted.length ? [`Recorded the checksums of ${run.adopted.length} migrations applied before checksums were kept.`] : []),
    ...(run.migrations.length ? [`Applied migrations: ${list(run.migrations)}`] : []),
    ...(run.rules.length ? [`Applied SQL rules: ${list(run.rules)}`] : []),
  ];
}

async function openMigrated(config: Config, purpose: string): Promise<Database> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, purpose });
  try {
    for (const line of describeRun(await migrate(database))) console.log(line);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

async function prepare(config: Config, purpose: string): Promise<Database> {
  const database = await openMigrated(config, purpose);
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

/**
 * One process that serves: opens the database (already migrated unless `prepareFirst`),
 * listens, and on SIGTERM or SIGINT finishes the requests under way before exiting 0.
 * Under node:cluster every worker runs this; their listen shares the primary's port.
 */
async function serveOne(config: Config, logger: Logger, prepareFirst: boolean) {
  let stopBackupSocket = async () => {};
  let schedule: Schedule | null = null;
  let usageMonths: { close(): Promise<void> } | null = null;
  const database = prepareFirst
    ? await prepare(config, 'server')
    : await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, purpose: 'server' });
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
    // A backup under way finishes (within the grace period) rather than leave a temporary file.
    await schedule?.stop();
    await usageMonths?.close();
    await stopBackupSocket();
    await database.close();
    // The last requests' spans are sent before the process ends.
    await stopTracing();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
  // Only this process may open the embedded database, so it takes the backups of it.
  if (database.kind === 'pglite') stopBackupSocket = await listenForBackups(database, config.dataDir, logger);
  // One process of a cluster (the primary) takes the scheduled backups; a single process here.
  if (prepareFirst) schedule = startSchedule(config, logger, database);
  // The months ahead of usage events get their partitions at start (migrate) and once a day
  // after: every serving process looks, on every host, and one of them does the day's run.
  usageMonths = startOnceADay({
    db: database.db,
    logger,
    name: 'usage-events-add-months',
    work: async (trx) =>
      (await sql<{ made: number }>`select usage_events_add_months(${USAGE_MONTHS_AHEAD}::integer) as made`.execute(trx)).rows[0],
  });
  return database;
}

function startSchedule(config: Config, logger: Logger, database: Database | null): Schedule | null {
  if (!config.backup) return null;
  const source = config.databaseUrl ? { kind: 'pg' as const, url: config.databaseUrl } : { kind: 'pglite' as const, database: database! };
  logger.info({ dir: config.backup.dir, everyMinutes: config.backup.everyMs / 60_000, keep: config.backup.keep }, 'scheduled backups on');
  // Over PostgreSQL every host may schedule backups: each window's backup is taken by one of them.
  const claim = config.databaseUrl ? () => claimBackupWindow(config.databaseUrl!, config.backup!.everyMs) : undefined;
  return scheduleBackups({ source, ...config.backup, log: logger, claim });
}

async function serve(config: Config) {
  const logger = pino({ level: config.logLevel });
  if (config.workers > 1) return cluster.isPrimary ? servePrimary(config, logger) : void (await serveOne(config, logger, false));
  const database = await serveOne(config, logger, true);
  console.log(
    `Organization Console is running at ${config.appUrl} (${database.kind === 'pg' ? 'PostgreSQL' : `embedded database in ${config.dataDir}`})`,
  );
}

/** How long the primary waits before replacing a worker that died before it could listen. */
const RESTART_DELAY_MS = 1_000;

/**
 * The primary of CONSOLE_WORKERS processes (PostgreSQL only, checked by loadConfig): runs
 * the migrations and the first house admin once, makes the JWT secret if none is set (the
 * workers read the same file), forks the workers, and replaces one that dies. A worker
 * that dies before it ever listened stops everything: a bad setting or a port in use would
 * only fail again. SIGTERM or SIGINT is passed to every worker, each finishes its requests
 * under way, and the primary exits 0 once all have exited 0.
 */
async function servePrimary(config: Config, logger: Logger) {
  const database = await prepare(config, 'server');
  await database.close();
  if (!config.jwtSecret) {
    makeDataDirPrivate(config.dataDir);
    resolveJwtSecret(null, config.dataDir);
  }
  let closing = false;
  let failed = false;
  let announced = false;
  const listening = new Set<Worker>();
  const live = new Set<Worker>();
  const fork = () => live.add(cluster.fork());
  // A scrape reaching one worker answers for all of them.
  if (config.metrics) aggregateWorkerMetrics(() => listening);

  cluster.on('listening', (worker) => {
    listening.add(worker);
    if (!announced && listening.size === config.workers) {
      announced = true;
      console.log(`Organization Console is running at ${config.appUrl} (PostgreSQL, ${config.workers} processes)`);
    }
  });
  cluster.on('exit', (worker, code, signal) => {
    const served = listening.delete(worker);
    live.delete(worker);
    if (closing) {
      // One still starting has nothing to finish: ended by the signal itself (Ctrl-C reaches
      // every process of the group), it did no harm.
      if (code === 0 || (!served && (signal === 'SIGTERM' || signal === 'SIGINT')))
        logger.info({ worker: worker.process.pid }, 'a server process stopped');
      else {
        logger.warn({ worker: worker.process.pid, code, signal }, 'a server process stopped with a failure');
        failed = true;
      }
      if (live.size === 0) process.exit(failed ? 1 : 0);
      return;
    }
    if (!announced) {
      logger.error({ worker: worker.process.pid, code, signal }, 'a server process exited while starting: stopping');
      failed = true;
      void stopAll('start failure');
      return;
    }
    logger.error({ worker: worker.process.pid, code, signal }, 'a server process exited: starting another');
    // One that never listened (the database away at its start, say) is retried at a calm pace.
    if (served) fork();
    else setTimeout(() => !closing && fork(), RESTART_DELAY_MS);
  });

  const stopAll = async (reason: string) => {
    if (closing) return;
    closing = true;
    logger.info({ reason }, 'shutting down: every process finishes its requests under way');
    if (live.size === 0) process.exit(failed ? 1 : 0);
    for (const worker of live) worker.process.kill('SIGTERM');
    // Each worker exits by its own grace period; this only guards against one that does not.
    setTimeout(() => {
      for (const worker of live) worker.process.kill('SIGKILL');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS + 5_000).unref();
  };
  process.on('SIGTERM', () => void stopAll('SIGTERM'));
  process.on('SIGINT', () => void stopAll('SIGINT'));
  for (let n = 0; n < config.workers; n++) fork();
  startSchedule(config, logger, null);
}

async function main({ command, flags, args }: Extract<CommandLine, { kind: 'run' }>) {
  const config = loadConfig();
  switch (command) {
    case 'serve':
      return serve(config);
    case 'migrate': {
      const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, purpose: 'db:migrate' });
      try {
        const lines = describeRun(await migrate(database));
        console.log(lines.length ? lines.join('\n') : 'Database is up to date.');
      } finally {
        await database.close();
      }
      return;
    }
    case 'seed': {
      const database = await prepare(config, 'db:seed');
      try {
        if (flags.has('demo')) {
          const started = Date.now();
          // The demo admin's authenticator app is sealed as the server seals it: under the server
          // secret (generated into the data folder, kept private, when JWT_SECRET is not set).
          if (!config.jwtSecret) makeDataDirPrivate(config.dataDir);
          const totpSealer = secretSealer(resolveJwtSecret(config.jwtSecret, config.dataDir), 'totp-secrets');
          const identitySealer = secretSealer(resolveJwtSecret(config.jwtSecret, config.dataDir), 'identity-secrets');
          const demo = await seedDemoWithUsage(database.db, { totpSealer, identitySealer, appUrl: config.appUrl });
          const tenants = demo.organizations.filter((o) => o.type === 'tenant');
          const sellers = demo.organizations.filter((o) => DEMO_PRICE_BOOKS.some((b) => b.seller === o.name));
          console.log(`Demo hierarchy added. Every demo user signs in with the password: ${demo.password}`);
          console.table(demo.signIns);
          if (demo.mfaAdmin) {
            console.log(
              [
                `Demo admin with an authenticator app (${demo.mfaAdmin.organization}), same password: ${demo.mfaAdmin.email}`,
                `  TOTP secret: ${demo.mfaAdmin.totpSecret}   (add it to an authenticator app: its sign-in asks for a code)`,
              ].join('\n'),
            );
          }
          if (demo.sso) {
            console.log(
              [
                `Single sign-on for ${demo.sso.organization}: its provider is ${demo.sso.issuer}, the domain ${demo.sso.domain} is approved, and new people join as ${demo.sso.jitRole}.`,
                '  Start the console with IDENTITY_ALLOWED_HOSTS=127.0.0.1 npm start, run npm run sso:demo-provider,',
                `  and sign in as ${demo.sso.accounts.join(' or ')} (the provider takes any password).`,
              ].join('\n'),
            );
          }
          console.log(
            [
              `Agents: ${demo.agentTypeCount} types, ${demo.activations} activations, ${demo.events} usage events over ${demo.days} days (${demo.charged} credits charged).`,
              ...demo.lowBalance.map((l) => `Below its low-balance threshold: ${l.organization} (${l.balance} < ${l.threshold}).`),
              ...demo.earnings.map((e) => `Earned on its subtree's usage (price books): ${e.seller} ${e.earned}.`),
              `Monthly spend cap of ${demo.cap.organization} set by ${demo.cap.setBy}: ${demo.cap.cap}; ${demo.cap.refused} events refused (spend_cap_reached)` +
                demo.cap.months.map((m) => `; ${m.month}: ${m.charged} charged, ${m.refused} refused`).join('') +
                '.',
              ...demo.topUps.map((u) => `Automatic top-ups of ${u.organization} from ${u.from}: ${u.count}, ${u.amount} credits in all.`),
              ...demo.invoices.map(
                (i) => `Invoice ${i.number} from ${i.seller} to ${i.buyer}: ${i.total} USD, ${i.state.replace('_', ' ')}.`,
              ),
              `Promotional grant to ${demo.grant.organization} from ${demo.grant.from}: ${demo.grant.amount} credits for ${demo.grant.agent}, expiring ${demo.grant.expiresAt}.`,
              `API key for ${demo.apiKey.organization} (every scope; shown once, only its hash is stored):`,
              `  ${demo.apiKey.secret}`,
              'Send usage through the machine API while the server runs:',
              `  npm run usage:simulate -- --key ${demo.apiKey.secret} --org ${tenants.map((t) => t.id).join(',')} --agent support-bot,scheduler --seller ${sellers.map((o) => o.id).join(',')}`,
              `  (--seller: ${sellers.map((o) => o.name).join(', ')}, whose earnings it prints beside the balances)`,
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
      const database = await openMigrated(config, 'db:reconcile');
      try {
        const report = await reconcile(database.db);
        console.log(JSON.stringify(report, null, 2));
        if (!report.ok) process.exitCode = 1;
      } finally {
        await database.close();
      }
      return;
    }
    case 'backup':
      console.log(describeBackup(await backupCommand(config, args[0])));
      return;
    case 'restore':
      console.log(describeRestore(args[0]!, await restoreCommand(config, args[0])));
      return;
  }
}

// The command line is read before anything else: --help and a refusal open nothing.
const line = parseCommandLine(process.argv.slice(2));
if (line.kind === 'help') {
  console.log(line.text);
} else if (line.kind === 'refused') {
  console.error(line.text);
  process.exitCode = 2;
} else {
  main(line).catch((error: unknown) => {
    // Refusals that explain themselves are printed as their message alone; anything else whole.
    const explained = [ConfigError, MigrationError, DataDirInUseError, DataDirUnsafeError, DemoAlreadySeededError, BackupError];
    if (error instanceof Error && explained.some((kind) => error instanceof kind)) {
      console.error(error.message);
    } else {
      console.error(error);
    }
    process.exit(1);
  });
}
