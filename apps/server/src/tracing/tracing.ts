/**
 * OpenTelemetry traces of the server, off unless an OTLP endpoint is set
 * (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT to which /v1/traces is
 * added) and OTEL_SDK_DISABLED is not true. Each request is one trace: its Fastify span (the
 * server span, the root unless the caller sent a traceparent), the spans of its hooks and
 * handler, and the `pg` spans of the SQL it ran. The rest of the exporter's settings are the
 * standard OTEL_* variables (protocol, headers, batch delay, sampler).
 *
 * The SDK is loaded only when tracing is on, synchronously, before any module that loads `pg`
 * is evaluated: the `pg` instrumentation patches the driver as it is first required.
 */
import { createRequire } from 'node:module';
import type { FastifyPluginCallback } from 'fastify';
import type * as FastifyOtelModule from '@fastify/otel';
import type * as PgModule from '@opentelemetry/instrumentation-pg';
import type * as SdkModule from '@opentelemetry/sdk-node';

/** The service name of every span, unless OTEL_SERVICE_NAME names another. */
export const SERVICE_NAME = 'organization-console';

interface Running {
  sdk: SdkModule.NodeSDK;
  fastify: FastifyOtelModule.FastifyOtelInstrumentation;
}

let running: Running | null = null;

/** Routes (and those under them) that make no trace. */
export const UNTRACED_PATHS = ['/api/health', '/metrics'];

/** The URL spans are sent to, or null when tracing is off (no endpoint, or the SDK disabled). */
export function tracesEndpoint(env: NodeJS.ProcessEnv): string | null {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return null;
  const traces = (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? '').trim();
  if (traces) return traces;
  const base = (env.OTEL_EXPORTER_OTLP_ENDPOINT ?? '').trim();
  return base ? `${base.replace(/\/$/, '')}/v1/traces` : null;
}

/** Whether `value` can be an OTLP/HTTP endpoint: an http(s) URL. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Starts the SDK when an endpoint is set and valid (an invalid one is left to loadConfig,
 * which refuses it by name). Safe to call more than once.
 */
export function startTracing(env: NodeJS.ProcessEnv = process.env): boolean {
  if (running) return true;
  const endpoint = tracesEndpoint(env);
  if (endpoint === null || !isHttpUrl(endpoint)) return false;
  const require = createRequire(import.meta.url);
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof SdkModule;
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof PgModule;
  const { FastifyOtelInstrumentation } = require('@fastify/otel') as typeof FastifyOtelModule;
  const fastify = new FastifyOtelInstrumentation({
    // Balancers' health probes and metrics scrapes arrive every few seconds: no trace each.
    ignorePaths: (route) => UNTRACED_PATHS.some((path) => route.url === path || route.url.startsWith(`${path}/`)),
    // url.path is the request's path alone: a query string may carry what is not ours to keep.
    requestHook: (span, request) => span.setAttribute('url.path', request.url.split('?')[0]!),
  });
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME?.trim() ? undefined : SERVICE_NAME,
    // Traces only: metrics are Prometheus's, logs are pino's.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new PgInstrumentation({
        // Statement text only, never the values bound to it (keys' hashes, e-mail addresses, amounts).
        enhancedDatabaseReporting: false,
        // SQL outside a request (the background loops' polling) makes no trace of its own.
        requireParentSpan: true,
      }),
      fastify,
    ],
  });
  sdk.start();
  running = { sdk, fastify };
  return true;
}

/** The Fastify plugin that opens each request's span, or null when tracing is off. */
export function tracingPlugin(): FastifyPluginCallback | null {
  return running ? (running.fastify.plugin() as unknown as FastifyPluginCallback) : null;
}

/** Sends the spans still buffered and stops the SDK (at shutdown); nothing when off. */
export async function stopTracing(): Promise<void> {
  const current = running;
  running = null;
  await current?.sdk.shutdown().catch(() => {});
}
