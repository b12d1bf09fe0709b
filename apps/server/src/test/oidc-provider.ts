/**
 * A real OpenID Connect provider (the `oidc-provider` package) on 127.0.0.1, for the API
 * tests, the browser journey and the demo: registered clients, a few accounts, and a plain
 * login page, which signs in whichever account the login field
 * names (by e-mail or subject; any password), through the provider's interaction API.
 * Consent is given at once, as a company's own provider does for its own applications.
 *
 * `signInAt` drives that login page over plain HTTP (fetch, manual redirects, a cookie jar)
 * and answers the address the provider sends the browser back to, so a test completes a
 * sign-in without a browser.
 *
 * Run as a script (`node apps/server/src/test/oidc-provider.ts`) it starts a provider from the
 * JSON options in OIDC_PROVIDER_OPTIONS, prints one JSON line `{"issuer":…}` once it listens,
 * and runs until SIGTERM or SIGINT. OIDC_CLOCK_OFFSET_SECONDS shifts its clock (a provider whose
 * clock runs behind issues tokens that have already expired): `startOidcProviderProcess` runs
 * it that way in a child process, so the console's own clock is untouched.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider from 'oidc-provider';
import MemoryAdapter from 'oidc-provider/lib/adapters/memory_adapter.js';

export interface OidcAccount {
  /** The provider's subject: stays the same when the e-mail changes. */
  sub: string;
  email: string;
  name?: string;
}

export interface OidcClientRegistration {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

export interface OidcProviderOptions {
  clients: OidcClientRegistration[];
  accounts: OidcAccount[];
  /** 0 (or left out): a free port. */
  port?: number;
  /** E-mail and name in the ID token (default), or only at the userinfo endpoint, as conforming providers do. */
  claimsInIdToken?: boolean;
  /** The private signing key (RS256, with its `kid`); a new one when left out. */
  signingKey?: JWK;
  /**
   * Client ids the provider's client registry answers with another client's registration:
   * `{ console: 'other-app' }` makes a sign-in of `console` end with ID tokens issued to
   * `other-app` (a provider mixing up its clients, for the audience check).
   */
  answerAs?: Record<string, string>;
}

export interface OidcProvider {
  issuer: string;
  port: number;
  /** The private key it signs with (give it to another provider to keep the key, or change it under the same `kid`). */
  signingKey: JWK;
  close(): Promise<void>;
}

/** A fresh RS256 signing key (private JWK) under `kid`. */
export async function newSigningKey(kid = 'test-signing-key'): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
}

/** Starts a provider in this process. */
export async function startOidcProvider(options: OidcProviderOptions): Promise<OidcProvider> {
  const signingKey = options.signingKey ?? (await newSigningKey());
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;
  const provider = providerFor(issuer, options, signingKey);
  const handle = provider.callback();
  server.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return handle(req, res);
    interaction(provider, options.accounts, req, res).catch((error: unknown) => {
      res.statusCode = 400;
      res.setHeader('content-type', 'text/plain');
      res.end(`interaction failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  return {
    issuer,
    port,
    signingKey,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const accountOf = (accounts: OidcAccount[], login: string) => {
  const wanted = login.trim().toLowerCase();
  return accounts.find((a) => a.sub === login || a.email.toLowerCase() === wanted);
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The provider's login page: a form with the login (the e-mail the console passed as
 * login_hint, or any account's e-mail or subject) and a password (any), which signs in that
 * account through the provider's interaction API.
 */
async function interaction(provider: Provider, accounts: OidcAccount[], req: IncomingMessage, res: ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (req.method === 'POST') {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    const login = new URLSearchParams(body).get('login') ?? '';
    const account = accountOf(accounts, login);
    if (account) {
      await provider.interactionFinished(req, res, { login: { accountId: account.sub } }, { mergeWithLastSubmission: false });
      return;
    }
    return page(res, details.uid, login, `No account ${login} here.`);
  }
  return page(res, details.uid, String(details.params.login_hint ?? ''), null);
}

function page(res: ServerResponse, uid: string, login: string, problem: string | null): void {
  res.statusCode = problem ? 400 : 200;
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.end(`<!doctype html><html><head><title>Test identity provider</title></head><body>
<h1>Test identity provider: sign in</h1>${problem ? `<p role="alert">${escapeHtml(problem)}</p>` : ''}
<form autocomplete="off" action="/interaction/${escapeHtml(uid)}" method="post">
  <input type="hidden" name="prompt" value="login"/>
  <label>E-mail <input required type="text" name="login" value="${escapeHtml(login)}"></label>
  <label>Password <input required type="password" name="password" placeholder="any password"></label>
  <button type="submit">Sign-in</button>
</form></body></html>`);
}

function providerFor(issuer: string, options: OidcProviderOptions, signingKey: JWK): Provider {
  const registrations = new Map(options.clients.map((client) => [client.client_id, client]));
  const answerAs = options.answerAs ?? {};
  // Clients not registered statically are looked up here: an alias answers with another registration.
  class Registry extends MemoryAdapter {
    readonly #model: string;
    constructor(model: string) {
      super(model);
      this.#model = model;
    }
    override async find(id: string) {
      if (this.#model !== 'Client') return super.find(id);
      const registration = answerAs[id] ? registrations.get(answerAs[id]) : undefined;
      return registration ? { ...registration } : undefined;
    }
  }
  const provider = new Provider(issuer, {
    clients: options.clients.map((client) => ({ ...client, grant_types: ['authorization_code'], response_types: ['code'] })),
    adapter: Registry,
    jwks: { keys: [signingKey] },
    cookies: { keys: ['oidc-test-provider-cookie-key'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    conformIdTokenClaims: options.claimsInIdToken === false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    // Set, so the package does not warn about its defaults; an ID token lives an hour, as at most providers.
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 3600, Grant: 3600, Interaction: 600, Session: 3600 },
    async findAccount(_ctx: unknown, id: string) {
      const account = accountOf(options.accounts, id);
      if (!account) return undefined;
      return {
        accountId: account.sub,
        claims: async () => ({ sub: account.sub, email: account.email, email_verified: true, name: account.name ?? account.email }),
      };
    },
    // Consent is given at once: the console is the organization's own application.
    async loadExistingGrant(ctx: any) {
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope('openid email profile');
      // Kept under the registration's own id too: an aliased client id (answerAs) finds it there when the code is issued.
      ctx.oidc.session.ensureClientContainer(ctx.oidc.client.clientId);
      ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId, await grant.save());
      return grant;
    },
  });
  provider.on('server_error', (_ctx: unknown, error: Error) => console.error('oidc-provider:', error));
  return provider;
}

/** Starts a provider in a child process, its clock shifted by `clockOffsetSeconds` (negative: behind). */
export async function startOidcProviderProcess(
  options: OidcProviderOptions & { clockOffsetSeconds?: number },
): Promise<Omit<OidcProvider, 'signingKey'>> {
  const { clockOffsetSeconds = 0, ...rest } = options;
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], {
    env: { ...process.env, OIDC_PROVIDER_OPTIONS: JSON.stringify(rest), OIDC_CLOCK_OFFSET_SECONDS: String(clockOffsetSeconds) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  const started = await new Promise<{ issuer: string; port: number }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the provider process did not start within 20 s:\n${output}`)), 20_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-5_000);
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.startsWith('{'));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line));
      }
    });
    void exited.then(() => reject(new Error(`the provider process exited:\n${output}`)));
  });
  return {
    ...started,
    async close() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Signs in at the provider as `login` (an account's e-mail or subject), starting from the
 * authorization URL the console gave, and answers the URL the provider then sends the browser
 * to (the console's callback, with the code and state, or with an error).
 */
export async function signInAt(authorizationUrl: string, login: string, options: { password?: string } = {}): Promise<string> {
  const origin = new URL(authorizationUrl).origin;
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  let form: URLSearchParams | undefined;
  for (let hop = 0; hop < 20; hop++) {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      body: form,
      redirect: 'manual',
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    keepCookies(jar, response.headers.getSetCookie());
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      const next = new URL(location, url);
      if (next.origin !== origin) return next.toString();
      url = next.toString();
      form = undefined;
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
    if (response.status !== 200 || !action || !prompt) {
      throw new Error(
        `the provider answered ${response.status} at ${url}: ${html
          .replace(/<[^>]+>/g, ' ')
          .replace(/\s+/g, ' ')
          .slice(0, 500)}`,
      );
    }
    url = new URL(action.replaceAll('&amp;', '&'), url).toString();
    form = new URLSearchParams(prompt === 'login' ? { prompt, login, password: options.password ?? 'any password' } : { prompt });
  }
  throw new Error('the provider redirected more than 20 times');
}

/** Keeps the cookies a response set, by name (the provider's names do not repeat across paths); a cleared one is dropped. */
function keepCookies(jar: Map<string, string>, setCookies: string[]): void {
  for (const header of setCookies) {
    const [pair = '', ...attributes] = header.split(';');
    const at = pair.indexOf('=');
    if (at < 1) continue;
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    // Expiry dates are not compared with this clock: a provider whose clock is shifted dates its cookies by its own.
    const cleared = !value || attributes.some((a) => /^\s*(max-age=0|expires=.*1970)/i.test(a));
    if (cleared) jar.delete(name);
    else jar.set(name, value);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const offsetMs = Number(process.env.OIDC_CLOCK_OFFSET_SECONDS ?? 0) * 1000;
  if (offsetMs) {
    const realNow = Date.now.bind(Date);
    Date.now = () => realNow() + offsetMs;
  }
  const options = JSON.parse(process.env.OIDC_PROVIDER_OPTIONS ?? '{}') as Partial<OidcProviderOptions>;
  const running = await startOidcProvider({ ...options, clients: options.clients ?? [], accounts: options.accounts ?? [] });
  console.log(JSON.stringify({ issuer: running.issuer, port: running.port }));
  const stop = () => void running.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
