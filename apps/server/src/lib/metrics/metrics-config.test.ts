import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';
import { attemptOutcome, statusClass } from './metrics.ts';
import { bearerMatches } from './serve.ts';

const TOKEN = 'a'.repeat(32);

describe('METRICS_TOKEN and METRICS_PORT', () => {
  it('leave /metrics off by default; one of them turns it on', () => {
    expect(loadConfig({}).metrics).toBeNull();
    expect(loadConfig({ METRICS_TOKEN: TOKEN }).metrics).toEqual({ kind: 'token', token: TOKEN });
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ kind: 'port', port: 9464 });
    expect(loadConfig({ METRICS_PORT: ' ' }).metrics).toBeNull();
  });

  it.each([
    [{ METRICS_TOKEN: 'short' }, /METRICS_TOKEN: must be at least 32 characters/],
    [{ METRICS_PORT: '0' }, /METRICS_PORT: must be a port number/],
    [{ METRICS_PORT: '70000' }, /METRICS_PORT: must be a port number/],
    [{ METRICS_PORT: 'nine' }, /METRICS_PORT: must be a port number/],
    [{ METRICS_PORT: '3000' }, /METRICS_PORT: must differ from PORT/],
    [{ METRICS_PORT: '9464', METRICS_TOKEN: TOKEN }, /METRICS_PORT: is set with METRICS_TOKEN/],
  ])('refuses %o, naming the setting', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('the metrics’ small rules', () => {
  it('a bearer token matches only exactly, and never when empty', () => {
    const asked = (authorization?: string) => ({ headers: authorization === undefined ? {} : { authorization } });
    expect(bearerMatches(asked(`Bearer ${TOKEN}`), TOKEN)).toBe(true);
    expect(bearerMatches(asked(`Bearer ${TOKEN}a`), TOKEN)).toBe(false);
    expect(bearerMatches(asked(`bearer ${TOKEN}`), TOKEN)).toBe(false);
    expect(bearerMatches(asked(TOKEN), TOKEN)).toBe(false);
    expect(bearerMatches(asked(), TOKEN)).toBe(false);
    expect(bearerMatches(asked('Bearer '), '')).toBe(false);
  });

  it('status classes and webhook attempt outcomes', () => {
    expect([200, 204, 301, 404, 429, 503].map(statusClass)).toEqual(['2xx', '2xx', '3xx', '4xx', '4xx', '5xx']);
    expect(attemptOutcome({ status: 204 })).toBe('delivered');
    expect(attemptOutcome({ status: 410 })).toBe('failed');
    expect(attemptOutcome({ status: null, timedOut: true })).toBe('timeout');
    expect(attemptOutcome({ status: null })).toBe('error');
  });
});
