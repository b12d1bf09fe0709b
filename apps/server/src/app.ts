import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifySchema } from 'fastify';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { TrustProxy } from './config.ts';
import { createContext, type ContextOptions } from './context.ts';
import { errorBody, malformedRequest, registerErrorHandling, sendNotFound } from './lib/error-handler.ts';
import { UnavailableError } from './lib/errors.ts';
import { keepInexactNumbersAsText } from './lib/json-body.ts';
import { serveMetrics, type MetricsListener } from './lib/metrics/serve.ts';
import { readYourWrites } from './lib/read-your-writes.ts';
import { postgresRateLimitStore } from './lib/rate-limit.ts';
import { responseSerializerCompiler } from './lib/serializer.ts';
import { accountRoutes } from './modules/account/account.routes.ts';
import { activityRoutes } from './modules/activity/activity.routes.ts';
import { agentsRoutes } from './modules/agents/agents.routes.ts';
import { apiKeysRoutes } from './modules/api-keys/api-keys.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { billingRoutes } from './modules/billing/billing.routes.ts';
import { pricingRoutes } from './modules/pricing/pricing.routes.ts';
import { creditsRoutes } from './modules/credits/credits.routes.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { debugRoutes } from './modules/debug/debug.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { identityRoutes } from './modules/identity/identity.routes.ts';
import { invitationsRoutes } from './modules/invitations/invitations.routes.ts';
import { invoicesRoutes } from './modules/invoices/invoices.routes.ts';
import { organizationsRoutes } from './modules/organizations/organizations.routes.ts';
import { paymentsRoutes } from './modules/payments/payments.routes.ts';
import { settingsRoutes } from './modules/settings/settings.routes.ts';
import { statementsRoutes } from './modules/statements/statements.routes.ts';
import { grantsRoutes } from './modules/grants/grants.routes.ts';
import { mfaPolicyRoutes } from './modules/mfa-policy/mfa-policy.routes.ts';
import { scimRoutes } from './modules/scim/scim.routes.ts';
import { scimTokensRoutes } from './modules/scim-tokens/scim-tokens.routes.ts';
import { usageRoutes } from './modules/usage/usage.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.ts';
import { completeDocument, machineDocument, openApiFrame } from './openapi/document.ts';
import { tracingPlugin } from './tracing/tracing.ts';

const WEB_DIST = fileURLToPath(new URL('../../web/dist/', import.meta.url));

/** One API route as registered: what the security suites enumerate so no route is missed. */
export interface RouteEntry {
  method: string;
  url: string;
  schema: FastifySchema | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api route of this app, in registration order (HEAD twins left out). */
    routeTable: RouteEntry[];
    /** The metrics' listener of its own (METRICS_PORT), null when /metrics is off or on the API's port. */
    metricsListener: MetricsListener | null;
    /** Whether the app has begun to close (readiness answers 503 from then on). */
    lifecycle: { closing: boolean };
  }
}

export interface AppOptions extends ContextOptions {
  logger: FastifyBaseLogger | boolean;
  /** Serve the built console from apps/web/dist when it exists (default true). */
  serveWeb?: boolean;
  /** Overrides of SERVER_TIMEOUTS (tests). */
  timeouts?: Partial<ServerTimeouts>;
  /** Also check every answer against its zod schema and the compiled serializer against zod (tests). */
  checkAnswers?: boolean;
}

/** How long the server waits for a client. */
export interface ServerTimeouts {
  /** The whole request, headers and body, must have arrived within this (then 408 and closed). */
  requestMs: number;
  /** The headers must have arrived within this. */
  headersMs: number;
  /**
   * A connection on which nothing moves either way for this long is closed: a client that
   * stopped reading its answer, or went silent. A streamed answer that keeps flowing is not.
   */
  idleMs: number;
  /** How often Node checks the request and header deadlines (its own default is 30 s). */
  checkIntervalMs: number;
}

/**
 * A request and its body must arrive within 30 s (256 KiB at most, so only a client that
 * trickles it takes that long); what comes after the body, such as a streamed CSV export,
 * is bounded by the idle timeout only. Keep-alive connections stay Fastify's 72 s.
 */
export const SERVER_TIMEOUTS: ServerTimeouts = { requestMs: 30_000, headersMs: 15_000, idleMs: 60_000, checkIntervalMs: 2_000 };

/**
 * Fastify's form of TRUST_PROXY. A hop count trusts the nearest N hops, whoever they are
 * (Fastify would read a bare number as "trust none"), so the client address is the one
 * the outermost of those proxies saw and what a client writes before it is ignored;
 * the server must then be reachable only through the proxies. A list of addresses trusts
 * exactly those peers, wherever the server can be reached from.
 */
function trustProxyOption(setting: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting;
  const hops = setting;
  return (_address, hop) => hop < hops;
}

/** Content-Security-Policy the console runs under: nothing but this origin. */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

/** Browser features the console never uses, switched off for it and anything it could embed. */
const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'payment=()',
  'usb=()',
].join(', ');

/**
 * The headers every response carries; the swagger UI under /api/docs sets its own CSP.
 * Served on https (APP_URL), browsers are told to use nothing else for a year (HSTS).
 */
function securityHeadersFor(appUrl: string): (url: string) => Record<string, string> {
  const https = appUrl.startsWith('https://');
  return (url) => ({
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'permissions-policy': PERMISSIONS_POLICY,
    ...(https ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
    ...(url.startsWith('/api/docs') ? {} : { 'content-security-policy': CSP }),
    ...(url.startsWith('/api/') ? { 'cache-control': 'no-store' } : {}),
  });
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const securityHeaders = securityHeadersFor(options.config.appUrl);
  const timeouts = { ...SERVER_TIMEOUTS, ...options.timeouts };
  const app = Fastify({
    logger: options.logger === true ? { level: options.config.logLevel } : options.logger === false ? false : undefined,
    loggerInstance: typeof options.logger === 'object' ? options.logger : undefined,
    bodyLimit: 256 * 1024,
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.idleMs,
    http: { headersTimeout: timeouts.headersMs, connectionsCheckingInterval: timeouts.checkIntervalMs },
    // Behind a load balancer, the client address (rate limits, audit) comes from X-Forwarded-For,
    // as far as the trusted proxies wrote it.
    trustProxy: trustProxyOption(options.config.trustProxy),
    requestIdHeader: false,
    genReqId: () => randomUUID(),
    // Requests are not logged one by one; failures are (error handler and onResponse).
    logController: new LogController({ disableRequestLogging: true }),
    // Requests arriving during shutdown get our 503 (onRequest below), not Fastify's body.
    return503OnClosing: false,
    // A URL the router itself refuses (bad percent-encoding, an over-long parameter) is
    // answered before any hook runs: give it the same headers and error shape here.
    frameworkErrors: (error, request, reply: FastifyReply) => {
      void reply.code(400).headers(securityHeaders(request.url)).send(malformedRequest(error.message));
    },
  }).withTypeProvider<ZodTypeProvider>();
  // Each request's span (traces on): registered before every hook and route, so it covers them all.
  const tracing = tracingPlugin();
  if (tracing) await app.register(tracing);
  app.setValidatorCompiler(validatorCompiler);
  // Each response schema is compiled to a serializer once, as its route is registered.
  app.setSerializerCompiler(
    responseSerializerCompiler({
      check: options.checkAnswers ?? false,
      onFallback: (route, reason) => app.log.warn({ route, reason }, 'answers serialized by zod: the schema does not compile'),
    }),
  );
  app.decorateRequest('caller', null);
  registerErrorHandling(app);
  keepInexactNumbersAsText(app);

  const context = createContext(options, app.log);
  // With a read replica: each request's reads wait for the person's own last write (or read the primary).
  readYourWrites(app, context.reads, { secure: options.config.appUrl.startsWith('https://') });
  // The alert sender first: its last batch may still be queueing mail.
  app.addHook('onClose', async () => {
    await context.topUps.close();
    await context.monthlyIssuer.close();
    await context.overdueReminders.close();
    await context.grantExpiry.close();
    await context.webhookDispatcher.close();
    await context.balanceAlerts.close();
    await context.mailer.close?.();
    await context.reads.close();
  });

  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routeTable.push({ method, url: route.url, schema: route.schema });
    }
  });

  app.addHook('onSend', async (request, reply) => {
    reply.headers(securityHeaders(request.url));
  });
  let closing = false;
  app.decorate('lifecycle', context.lifecycle);
  app.addHook('preClose', async () => {
    closing = true;
    context.lifecycle.closing = true;
  });
  // Prometheus metrics: every answer counted by route pattern, GET /metrics behind the token or on its own port.
  const metricsSettings = options.config.metrics;
  app.decorate(
    'metricsListener',
    context.metrics && metricsSettings ? serveMetrics(app, context.metrics, metricsSettings, options.config.host) : null,
  );
  app.addHook('onRequest', async (_request, reply) => {
    if (closing) {
      const { status, code, message } = new UnavailableError();
      // Serialized here: a route's response schema for 503 (health) describes its own body.
      return reply
        .code(status)
        .header('connection', 'close')
        .serializer((payload: unknown) => JSON.stringify(payload))
        .send(errorBody(code, message));
    }
  });
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode >= 500) {
      request.log.error({ requestId: request.id, url: request.url, status: reply.statusCode }, 'server error');
    }
  });

  await app.register(cookie);
  await app.register(rateLimit, { global: false, store: postgresRateLimitStore(context.db) });
  await app.register(swagger, {
    openapi: openApiFrame(options.config.appUrl),
    transform: jsonSchemaTransform,
    transformObject: completeDocument,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  // The machine API alone, for agent runtime teams.
  app.get('/api/docs/machine.json', { schema: { hide: true } }, async () => machineDocument(app.swagger()));

  await app.register(
    async (api) => {
      for (const routes of [
        healthRoutes,
        authRoutes,
        accountRoutes,
        usersRoutes,
        invitationsRoutes,
        organizationsRoutes,
        billingRoutes,
        pricingRoutes,
        creditsRoutes,
        activityRoutes,
        dashboardRoutes,
        debugRoutes,
        settingsRoutes,
        agentsRoutes,
        apiKeysRoutes,
        usageRoutes,
        webhooksRoutes,
        mfaPolicyRoutes,
        scimTokensRoutes,
        identityRoutes,
        statementsRoutes,
        grantsRoutes,
        invoicesRoutes,
        paymentsRoutes,
      ]) {
        await api.register(routes(context));
      }
    },
    { prefix: '/api' },
  );
  // SCIM 2.0 for identity providers: outside /api, in the RFC's own shapes.
  await app.register(scimRoutes(context), { prefix: '/scim/v2' });

  const serveWeb = (options.serveWeb ?? true) && existsSync(WEB_DIST + 'index.html');
  if (serveWeb) {
    await app.register(fastifyStatic, { root: WEB_DIST, wildcard: false, index: false });
  }
  app.setNotFoundHandler((request, reply) => {
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api');
    // Client-side routes (/dashboard, /orgs/...) all load the one page of the console.
    if (serveWeb && isPage) return reply.type('text/html').sendFile('index.html');
    return sendNotFound(reply, request.method, request.url);
  });

  return app;
}
