import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('has working defaults', () => {
    expect(loadConfig({})).toMatchObject({
      port: 3000,
      dataDir: './data',
      databaseUrl: null,
      appUrl: 'http://localhost:3000',
      jwtSecret: null,
      smtpUrl: null,
      adminEmail: null,
    });
    expect(loadConfig({ PORT: '4100' }).appUrl).toBe('http://localhost:4100');
    expect(loadConfig({ APP_URL: 'https://console.example.com/' }).appUrl).toBe('https://console.example.com');
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ APP_URL: 'console.example.com' }, 'APP_URL'],
    [{ APP_URL: 'https://example.com/app' }, 'APP_URL'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ ADMIN_EMAIL: 'not-an-email' }, 'ADMIN_EMAIL'],
    [{ ADMIN_EMAIL: 'a@b.co', ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD'],
    [{ ADMIN_PASSWORD: 'long enough password' }, 'ADMIN_PASSWORD'],
    [{ RATE_LIMIT_FACTOR: '0' }, 'RATE_LIMIT_FACTOR'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '11' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.1,proxy.internal' }, 'TRUST_PROXY'],
    [{ CONSOLE_WORKERS: '0' }, 'CONSOLE_WORKERS'],
    [{ CONSOLE_WORKERS: '65', DATABASE_URL: 'postgres://h/db' }, 'CONSOLE_WORKERS'],
    [{ CONSOLE_WORKERS: '1.5', DATABASE_URL: 'postgres://h/db' }, 'CONSOLE_WORKERS'],
    [{ CONSOLE_WORKERS: 'two', DATABASE_URL: 'postgres://h/db' }, 'CONSOLE_WORKERS'],
    [{ BACKUP_EVERY: '6' }, 'BACKUP_EVERY'],
    [{ BACKUP_EVERY: '30s' }, 'BACKUP_EVERY'],
    [{ BACKUP_EVERY: '1.5h' }, 'BACKUP_EVERY'],
    [{ BACKUP_EVERY: '0m' }, 'BACKUP_EVERY'],
    [{ BACKUP_EVERY: '366d' }, 'BACKUP_EVERY'],
    [{ BACKUP_EVERY: '1d', BACKUP_KEEP: '0' }, 'BACKUP_KEEP'],
    [{ BACKUP_EVERY: '1d', BACKUP_KEEP: '2.5' }, 'BACKUP_KEEP'],
    [{ BACKUP_EVERY: '1d', BACKUP_KEEP: 'all' }, 'BACKUP_KEEP'],
    [{ BACKUP_KEEP: '3' }, 'BACKUP_KEEP'],
    [{ BACKUP_DIR: '/srv/backups' }, 'BACKUP_DIR'],
    [{ BACKUP_EVERY: '1d', DATA_DIR: '/srv/console', BACKUP_DIR: '/srv/console/pgdata/backups' }, 'BACKUP_DIR'],
  ])('reports a bad value by name: %o', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`${name}: `));
  });

  it('TRUST_PROXY is a hop count or a list of proxy addresses, never every hop', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.0/8, 192.168.1.10 ,::1,fd00::/8' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.10',
      '::1',
      'fd00::/8',
    ]);
    // `true` is refused with what to write instead.
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY: true would trust every hop.*write the number of proxies in front of the server \(such as 1\) or their addresses/,
    );
  });

  it('IDENTITY_ALLOWED_HOSTS and DNS_SERVERS: none by default; lists of hosts, and of DNS servers with an optional port', () => {
    expect(loadConfig({})).toMatchObject({ identityAllowedHosts: [], dnsServers: [] });
    expect(loadConfig({ IDENTITY_ALLOWED_HOSTS: ' 127.0.0.1, LocalHost ,10.0.0.0/8' }).identityAllowedHosts).toEqual([
      '127.0.0.1',
      'localhost',
      '10.0.0.0/8',
    ]);
    expect(loadConfig({ DNS_SERVERS: '127.0.0.1:5353, 1.1.1.1,[::1]:53' }).dnsServers).toEqual(['127.0.0.1:5353', '1.1.1.1', '[::1]:53']);
    expect(() => loadConfig({ IDENTITY_ALLOWED_HOSTS: 'http://x' })).toThrow(/IDENTITY_ALLOWED_HOSTS/);
    expect(() => loadConfig({ DNS_SERVERS: 'dns.example.com' })).toThrow(/DNS_SERVERS: must be DNS server addresses/);
  });

  it('STEP_UP_FRESH_SECONDS: ten minutes by default, a whole number of seconds from 1 to a day', () => {
    expect(loadConfig({}).stepUpFreshSeconds).toBe(600);
    expect(loadConfig({ STEP_UP_FRESH_SECONDS: '30' }).stepUpFreshSeconds).toBe(30);
    for (const bad of ['0', '86401', '1.5', 'soon']) {
      expect(() => loadConfig({ STEP_UP_FRESH_SECONDS: bad })).toThrow(/STEP_UP_FRESH_SECONDS: must be/);
    }
  });

  it('CONSOLE_WORKERS: one process by default, several only on PostgreSQL', () => {
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ CONSOLE_WORKERS: '1' }).workers).toBe(1);
    expect(loadConfig({ CONSOLE_WORKERS: '4', DATABASE_URL: 'postgres://h/db' }).workers).toBe(4);
    expect(() => loadConfig({ CONSOLE_WORKERS: '2' })).toThrow(
      /CONSOLE_WORKERS: 2 processes need PostgreSQL \(set DATABASE_URL\); the embedded database belongs to one process/,
    );
  });

  it('DATABASE_URL: several hosts for failover, each host[:port], read-write or any', () => {
    const url = 'postgres://u@db1:5432,db2:5433/console?target_session_attrs=read-write';
    expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@db1:5432,db2:99999/console' })).toThrow(
      /DATABASE_URL: port 99999 of host db2 must be between 1 and 65535/,
    );
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@db1,/console' })).toThrow(/DATABASE_URL: host "" must be host or host:port/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@db1,db2/console?target_session_attrs=standby' })).toThrow(
      /DATABASE_URL: target_session_attrs must be any or read-write, not standby/,
    );
  });

  it('DATABASE_READ_URL: a replica of a PostgreSQL primary only', () => {
    expect(loadConfig({}).databaseReadUrl).toBeNull();
    expect(loadConfig({ DATABASE_URL: 'postgres://p/db', DATABASE_READ_URL: 'postgres://r/db' }).databaseReadUrl).toBe('postgres://r/db');
    expect(() => loadConfig({ DATABASE_URL: 'postgres://p/db', DATABASE_READ_URL: 'mysql://r/db' })).toThrow(
      /DATABASE_READ_URL: must start with postgres:\/\/ or postgresql:\/\//,
    );
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://r/db' })).toThrow(
      /DATABASE_READ_URL: a read replica needs PostgreSQL as the primary \(set DATABASE_URL\)/,
    );
  });

  it('BACKUP_EVERY turns scheduled backups on; BACKUP_DIR and BACKUP_KEEP only go with it', () => {
    expect(loadConfig({}).backup).toBeNull();
    expect(loadConfig({ BACKUP_EVERY: '6h' }).backup).toEqual({ dir: './backups', everyMs: 6 * 3_600_000, keep: 7 });
    expect(loadConfig({ BACKUP_EVERY: '30m', BACKUP_DIR: '/srv/backups', BACKUP_KEEP: '14' }).backup).toEqual({
      dir: '/srv/backups',
      everyMs: 30 * 60_000,
      keep: 14,
    });
    expect(loadConfig({ BACKUP_EVERY: '1d', BACKUP_KEEP: ' ' }).backup).toEqual({ dir: './backups', everyMs: 86_400_000, keep: 7 });
    expect(() => loadConfig({ BACKUP_DIR: '/srv/backups' })).toThrow(
      /BACKUP_DIR: is set but BACKUP_EVERY is not; set BACKUP_EVERY \(such as 6h\) to schedule backups/,
    );
    expect(() => loadConfig({ BACKUP_EVERY: 'daily' })).toThrow(/BACKUP_EVERY: must be a duration such as 30m, 6h or 1d/);
    // Inside the embedded database's folder a backup would copy the older backups; on PostgreSQL that folder is unused.
    expect(() => loadConfig({ BACKUP_EVERY: '1d', DATA_DIR: '/srv/console', BACKUP_DIR: '/srv/console/pgdata' })).toThrow(
      /BACKUP_DIR: must not be inside the embedded database's folder/,
    );
    expect(loadConfig({ BACKUP_EVERY: '1d', DATA_DIR: '/srv/console', BACKUP_DIR: '/srv/console/backups' }).backup?.dir).toBe(
      '/srv/console/backups',
    );
    expect(
      loadConfig({ BACKUP_EVERY: '1d', DATA_DIR: '/srv/console', BACKUP_DIR: '/srv/console/pgdata', DATABASE_URL: 'postgres://h/db' })
        .backup?.dir,
    ).toBe('/srv/console/pgdata');
  });

  it('reports every bad value at once', () => {
    expect(() => loadConfig({ PORT: 'x', SMTP_URL: 'ftp://y' })).toThrow(/PORT: [\s\S]*SMTP_URL: /);
  });
});
