/**
 * Traces: the real server (`main.ts serve`) on a fresh PostgreSQL database, with its OTLP
 * exporter pointed at a receiver this test starts on 127.0.0.1. A usage batch is one trace,
 * from the server span of its HTTP request down through the `pg` spans of its SQL (the
 * `usage_record` statement among them); no span or resource attribute carries the API key,
 * the bearer token, the refresh cookie or the database password.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION } from '@console/domain';
import { ADMIN, createDatabase, killServers, meteredHouse, must, startServer, type FreshDatabase } from './harness.ts';
import { SPAN_KIND, startOtlpReceiver, type ReceivedSpan } from './otlp-receiver.ts';

let database: FreshDatabase;
let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;

beforeAll(async () => {
  database = await createDatabase();
  receiver = await startOtlpReceiver();
});

afterAll(async () => {
  await killServers();
  await receiver?.close();
  await database?.drop();
});

/** Resolves with what `found` returns once it is not undefined; the exporter sends in batches. */
async function eventually<T>(found: () => T | undefined, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = found();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`no ${what} reached the receiver within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Whether `span` descends from the span `rootId` through spans the receiver holds. */
function descendsFrom(span: ReceivedSpan, rootId: string, spans: ReceivedSpan[]): boolean {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  for (let parent = span.parentSpanId, hops = 0; parent && hops < 100; hops++) {
    if (parent === rootId) return true;
    parent = byId.get(parent)?.parentSpanId ?? '';
  }
  return false;
}

describe('traces over OTLP/HTTP', () => {
  it('shows a usage batch as one trace from the request through its SQL, with no secret in any attribute', async () => {
    // trust authentication takes any password: this one is there to be looked for.
    const password = `pw-${randomBytes(12).toString('hex')}`;
    const url = new URL(database.url);
    url.password = password;
    const server = await startServer({
      databaseUrl: url.toString(),
      env: {
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '200',
      },
    });

    const signIn = await fetch(`${server.url}/api/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    expect(signIn.status).toBe(200);
    const { access_token: token } = (await signIn.json()) as { access_token: string };
    const cookie = signIn.headers.getSetCookie().find((c) => c.startsWith(`${SESSION.refreshCookie}=`));
    const refreshToken = cookie!.split(';')[0]!.split('=')[1]!;
    expect(refreshToken.length).toBeGreaterThan(16);

    const { children, key } = await meteredHouse(server.url, token, {
      suite: 'traces',
      children: 1,
      childCents: 10_000,
      agent: 'trace-bot',
      price: '0.5',
    });
    // The refresh cookie rides along (a client may send it anywhere); it must not be recorded either.
    const result = await must<{ accepted: number }>(server.url, 'POST', '/api/v1/usage-events', {
      body: {
        events: [0, 1, 2].map((n) => ({
          id: `trace-usage-${n}`,
          organization_id: children[0],
          agent: 'trace-bot',
          units: '1',
          occurred_at: new Date().toISOString(),
        })),
      },
      headers: { authorization: `Bearer ${key}`, cookie: `${SESSION.refreshCookie}=${refreshToken}` },
    });
    expect(result.accepted).toBe(3);

    const request = await eventually(
      () =>
        receiver.spans.find(
          (s) =>
            s.kind === SPAN_KIND.server &&
            s.attributes['http.route'] === '/api/v1/usage-events' &&
            s.attributes['http.request.method'] === 'POST',
        ),
      'server span of POST /api/v1/usage-events',
    );
    const inTrace = () => receiver.spans.filter((s) => s.traceId === request.traceId);
    const usageStatement = await eventually(
      () =>
        inTrace().find(
          (s) =>
            s.scope.includes('instrumentation-pg') &&
            String(s.attributes['db.statement'] ?? s.attributes['db.query.text'] ?? '').includes('usage_record('),
        ),
      'pg span of the usage_record statement in the request trace',
    );
    const trace = inTrace();

    // One trace: the request's server span is its root, and every pg span in it descends from that span.
    expect(request.parentSpanId).toBe('');
    expect(request.resource['service.name']).toBe('organization-console');
    expect(request.attributes['http.response.status_code']).toBe(200);
    const pgSpans = trace.filter((s) => s.scope.includes('instrumentation-pg'));
    expect(pgSpans.length).toBeGreaterThanOrEqual(2);
    expect(pgSpans.every((s) => s.kind === SPAN_KIND.client || s.name.includes('connect'))).toBe(true);
    for (const span of pgSpans) expect(descendsFrom(span, request.spanId, trace), span.name).toBe(true);
    expect(usageStatement.attributes['db.system'] ?? usageStatement.attributes['db.system.name']).toBe('postgresql');
    // The statement's text, never the values bound to it.
    expect(Object.keys(usageStatement.attributes).some((k) => k.includes('parameter') || k === 'db.postgresql.values')).toBe(false);

    // No secret anywhere the server sent: the API key (whole or its secret part), the bearer
    // token, the refresh cookie, the database password.
    const secrets = { key, token, refreshToken, password };
    for (const [name, secret] of Object.entries(secrets)) {
      for (const body of receiver.bodies) expect(body.includes(secret), name).toBe(false);
    }
    // The health probes the harness sent while the server started make no trace.
    expect(receiver.spans.some((s) => String(s.attributes['url.path'] ?? '').startsWith('/api/health'))).toBe(false);
    const attributeText = JSON.stringify(receiver.spans.map((s) => [s.attributes, s.resource]));
    expect(attributeText).not.toMatch(/authorization|set-cookie|"cookie"/i);
  });
});
