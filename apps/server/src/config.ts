import { isIP } from 'node:net';
import { relative, resolve, isAbsolute } from 'node:path';
import { z } from 'zod';
import { MFA } from '@console/domain';
import { isHttpUrl } from './tracing/tracing.ts';
import { parseHostList } from './db/multi-host.ts';

/** Settings read from the environment at start; every bad value is reported with its name. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  appUrl: string;
  jwtSecret: string | null;
  smtpUrl: string | null;
  adminEmail: string | null;
  adminPassword: string | null;
  logLevel: string;
  /**
   * Which proxies' X-Forwarded-For is believed: none (false), the nearest N hops, or the
   * listed addresses and CIDR ranges. Never every hop: a client could then name any address.
   */
  trustProxy: TrustProxy;
  /** Multiplies every rate limit (load tests and browser journeys sign in often). */
  rateLimitFactor: number;
  /** How many server processes `serve` runs on the one port (node:cluster above 1). */
  workers: number;
  /** Scheduled backups (BACKUP_EVERY set), taken by the one process or the cluster's primary. */
  backup: BackupSchedule | null;
  /**
   * Hosts, addresses and CIDR ranges webhooks may reach although they are loopback or private,
   * and over plain http (WEBHOOK_ALLOWED_HOSTS, for development and tests); empty in production.
   */
  webhookAllowedHosts: string[];
  /** How long a session's proof of a second factor (or password) lets it move money and secrets (STEP_UP_FRESH_SECONDS). */
  stepUpFreshSeconds: number;
  /**
   * Hosts, addresses and CIDR ranges an identity provider's issuer may be at although they are
   * loopback or private (IDENTITY_ALLOWED_HOSTS, for development, tests and the demo provider).
   */
  identityAllowedHosts: string[];
  /**
   * The DNS servers domain claims are verified against (`address` or `address:port`, DNS_SERVERS);
   * empty: the machine's own resolver.
   */
  dnsServers: string[];
  /**
   * A streaming replica of DATABASE_URL's primary (DATABASE_READ_URL, PostgreSQL only): lists,
   * exports, dashboards, the activity log and usage events are read there; null reads everything
   * from the primary.
   */
  databaseReadUrl: string | null;
  /** Prometheus metrics at GET /metrics (METRICS_TOKEN or METRICS_PORT); null: not served. */
  metrics: MetricsSettings | null;
}

/**
 * Where /metrics is served: on the API's port to a scraper sending `Authorization: Bearer
 * <token>`, or on a port of its own (on HOST) to anyone who can reach it, without a token.
 */
export type MetricsSettings = { kind: 'token'; token: string } | { kind: 'port'; port: number };

export interface BackupSchedule {
  dir: string;
  everyMs: number;
  /** How many of the newest backups are kept; older ones of ours are deleted. */
  keep: number;
}

export type TrustProxy = false | number | string[];

const TRUST_PROXY_HELP =
  'must be the number of proxies in front of the server (such as 1) or their addresses ' +
  '(such as 10.0.0.0/8,192.168.1.10); 0 or false trusts none';

/** An IPv4 or IPv6 address, optionally with a CIDR prefix length. */
function isAddressOrRange(value: string): boolean {
  const [address = '', prefix, ...rest] = value.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/** A comma-separated list of host names, addresses and CIDR ranges. */
const hostListSchema = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  )
  .refine(
    (hosts) => hosts.every((h) => isAddressOrRange(h) || /^[a-z0-9.-]+$/.test(h)),
    'must be host names, addresses or CIDR ranges, comma-separated',
  );

/** TRUST_PROXY: a hop count or a list of proxy addresses; `true` (trust every hop) is refused. */
const trustProxySchema = z
  .string()
  .optional()
  .transform((raw, ctx): TrustProxy => {
    const value = (raw ?? '').trim();
    if (value === '' || value === 'false' || value === '0') return false;
    if (value === 'true') {
      ctx.addIssue({
        code: 'custom',
        message:
          'true would trust every hop, so any client could choose its own address (rate limits, audit); ' +
          'write the number of proxies in front of the server (such as 1) or their addresses (such as 10.0.0.0/8)',
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops > 10) ctx.addIssue({ code: 'custom', message: 'must be at most 10 hops' });
      return hops;
    }
    const addresses = value.split(',').map((part) => part.trim());
    if (addresses.some((part) => !isAddressOrRange(part))) {
      ctx.addIssue({ code: 'custom', message: TRUST_PROXY_HELP });
      return z.NEVER;
    }
    return addresses;
  });

const DURATION_UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** BACKUP_EVERY: a whole number of minutes, hours or days, from 1 minute to 365 days. */
const durationSchema = z
  .string()
  .optional()
  .transform((raw, ctx): number | null => {
    const value = (raw ?? '').trim();
    if (value === '') return null;
    const match = /^(\d+)([mhd])$/.exec(value);
    if (!match) {
      ctx.addIssue({ code: 'custom', message: 'must be a duration such as 30m, 6h or 1d (a whole number of minutes, hours or days)' });
      return z.NEVER;
    }
    const ms = Number(match[1]) * DURATION_UNITS[match[2]!]!;
    if (ms < DURATION_UNITS.m! || ms > 365 * DURATION_UNITS.d!) {
      ctx.addIssue({ code: 'custom', message: 'must be between 1m and 365d' });
      return z.NEVER;
    }
    return ms;
  });

const optional = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? null : v.trim()));

const envSchema = z.object({
  PORT: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1, 'must not be empty').default('./data'),
  DATABASE_URL: optional
    .refine((v) => v === null || /^postgres(ql)?:\/\//.test(v), 'must start with postgres:// or postgresql://')
    // Several hosts for failover (h1:5432,h2:5432 with target_session_attrs=read-write): each must be host[:port].
    .superRefine((v, ctx) => {
      if (v === null || !/^postgres(ql)?:\/\//.test(v)) return;
      try {
        parseHostList(v);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
      }
    }),
  DATABASE_READ_URL: optional.refine((v) => v === null || /^postgres(ql)?:\/\//.test(v), 'must start with postgres:// or postgresql://'),
  APP_URL: optional.refine((v) => v === null || isOrigin(v), 'must be an http(s) origin such as https://console.example.com'),
  JWT_SECRET: optional.refine((v) => v === null || v.length >= 32, 'must be at least 32 characters'),
  SMTP_URL: optional.refine((v) => v === null || /^smtps?:\/\//.test(v), 'must start with smtp:// or smtps://'),
  ADMIN_EMAIL: optional.refine((v) => v === null || z.email().safeParse(v).success, 'must be an e-mail address'),
  ADMIN_PASSWORD: optional.refine((v) => v === null || (v.length >= 8 && v.length <= 256), 'must be 8 to 256 characters'),
  TRUST_PROXY: trustProxySchema,
  RATE_LIMIT_FACTOR: z.coerce
    .number({ error: 'must be a number' })
    .min(1, 'must be at least 1')
    .max(100_000, 'must be at most 100000')
    .default(1),
  CONSOLE_WORKERS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be between 1 and 64')
    .max(64, 'must be between 1 and 64')
    .default(1),
  BACKUP_DIR: optional,
  BACKUP_EVERY: durationSchema,
  BACKUP_KEEP: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be between 1 and 10000')
      .max(10_000, 'must be between 1 and 10000')
      .optional(),
  ),
  WEBHOOK_ALLOWED_HOSTS: hostListSchema,
  IDENTITY_ALLOWED_HOSTS: hostListSchema,
  DNS_SERVERS: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((h) => h.trim())
        .filter(Boolean),
    )
    .refine(
      (servers) =>
        servers.every((s) => isIP(s) !== 0 || /^(\d{1,3}(\.\d{1,3}){3}):\d{1,5}$/.test(s) || /^\[[0-9a-f:]+\]:\d{1,5}$/i.test(s)),
      'must be DNS server addresses, each optionally with :port, comma-separated',
    ),
  STEP_UP_FRESH_SECONDS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be between 1 and 86400')
    .max(86_400, 'must be between 1 and 86400')
    .default(MFA.stepUpFreshSeconds),
  METRICS_TOKEN: optional.refine((v) => v === null || v.length >= 32, 'must be at least 32 characters'),
  METRICS_PORT: optional.refine(
    (v) => v === null || (/^\d{1,5}$/.test(v) && Number(v) >= 1 && Number(v) <= 65535),
    'must be a port number between 1 and 65535',
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Traces (off unless set): the OTLP/HTTP collector spans are sent to.
  OTEL_EXPORTER_OTLP_ENDPOINT: optional.refine((v) => v === null || isHttpUrl(v), 'must be an http(s) URL such as http://collector:4318'),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optional.refine(
    (v) => v === null || isHttpUrl(v),
    'must be an http(s) URL such as http://collector:4318/v1/traces',
  ),
});

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.pathname === '/';
  } catch {
    return false;
  }
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.ADMIN_PASSWORD !== null && e.ADMIN_EMAIL === null) {
    throw new ConfigError('Invalid configuration:\n  ADMIN_PASSWORD: is set but ADMIN_EMAIL is not');
  }
  // PGlite runs inside the process that opened it and its data folder is locked by that
  // process: a second process could neither open it nor share its one connection.
  if (e.CONSOLE_WORKERS > 1 && e.DATABASE_URL === null) {
    throw new ConfigError(
      `Invalid configuration:\n  CONSOLE_WORKERS: ${e.CONSOLE_WORKERS} processes need PostgreSQL (set DATABASE_URL); ` +
        'the embedded database belongs to one process, so leave CONSOLE_WORKERS at 1 without DATABASE_URL',
    );
  }
  // A replica streams from a PostgreSQL primary; the embedded database has none to stream from.
  if (e.DATABASE_READ_URL !== null && e.DATABASE_URL === null) {
    throw new ConfigError(
      'Invalid configuration:\n  DATABASE_READ_URL: a read replica needs PostgreSQL as the primary (set DATABASE_URL); ' +
        'the embedded database has no replica, so leave DATABASE_READ_URL unset without DATABASE_URL',
    );
  }
  const metrics = metricsSettings(e);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    jwtSecret: e.JWT_SECRET,
    smtpUrl: e.SMTP_URL,
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    rateLimitFactor: e.RATE_LIMIT_FACTOR,
    workers: e.CONSOLE_WORKERS,
    backup: backupSchedule(e),
    webhookAllowedHosts: e.WEBHOOK_ALLOWED_HOSTS,
    stepUpFreshSeconds: e.STEP_UP_FRESH_SECONDS,
    identityAllowedHosts: e.IDENTITY_ALLOWED_HOSTS,
    dnsServers: e.DNS_SERVERS,
    databaseReadUrl: e.DATABASE_READ_URL,
    metrics,
  };
}

/** METRICS_TOKEN or METRICS_PORT, never both: the port of its own asks for no token. */
function metricsSettings(e: z.infer<typeof envSchema>): MetricsSettings | null {
  if (e.METRICS_TOKEN !== null && e.METRICS_PORT !== null) {
    throw new ConfigError(
      'Invalid configuration:\n  METRICS_PORT: is set with METRICS_TOKEN; set one: METRICS_TOKEN serves /metrics on PORT behind the token, METRICS_PORT on a port of its own without one',
    );
  }
  if (e.METRICS_PORT !== null && Number(e.METRICS_PORT) === e.PORT) {
    throw new ConfigError('Invalid configuration:\n  METRICS_PORT: must differ from PORT (or set METRICS_TOKEN to serve /metrics on PORT)');
  }
  if (e.METRICS_TOKEN !== null) return { kind: 'token', token: e.METRICS_TOKEN };
  if (e.METRICS_PORT !== null) return { kind: 'port', port: Number(e.METRICS_PORT) };
  return null;
}

function backupSchedule(e: z.infer<typeof envSchema>): BackupSchedule | null {
  if (e.BACKUP_EVERY === null) {
    const stray = e.BACKUP_DIR !== null ? 'BACKUP_DIR' : e.BACKUP_KEEP !== undefined ? 'BACKUP_KEEP' : null;
    if (stray)
      throw new ConfigError(
        `Invalid configuration:\n  ${stray}: is set but BACKUP_EVERY is not; set BACKUP_EVERY (such as 6h) to schedule backups`,
      );
    return null;
  }
  const dir = e.BACKUP_DIR ?? './backups';
  // A backup folder inside the database's own folder would be copied into every backup.
  const inside = relative(resolve(e.DATA_DIR, 'pgdata'), resolve(dir));
  if (e.DATABASE_URL === null && (inside === '' || (inside !== '..' && !inside.startsWith('../') && !isAbsolute(inside)))) {
    throw new ConfigError(
      `Invalid configuration:\n  BACKUP_DIR: must not be inside the embedded database's folder (${resolve(e.DATA_DIR, 'pgdata')})`,
    );
  }
  return { dir, everyMs: e.BACKUP_EVERY, keep: e.BACKUP_KEEP ?? 7 };
}
