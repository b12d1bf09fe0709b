/**
 * `npm run sso:demo-provider -- [--app-url http://localhost:3000]`: the demo's identity
 * provider, a real OpenID Connect provider (the `oidc-provider` package) on
 * http://127.0.0.1:4011, with the client the demo seed registered for Bluebird Group and two
 * people at sso.demo.example.com. Its login page takes any password. The console must allow an
 * issuer on this machine: start it with IDENTITY_ALLOWED_HOSTS=127.0.0.1.
 */
import { parseArgs } from 'node:util';
import { DEMO_SSO } from '../apps/server/src/db/seed-sso.ts';
import { startOidcProvider } from '../apps/server/src/test/oidc-provider.ts';

const { values } = parseArgs({ options: { 'app-url': { type: 'string' }, help: { type: 'boolean' } } });
if (values.help) {
  console.log("Usage: npm run sso:demo-provider -- [--app-url URL]   (the console's APP_URL; default APP_URL or http://localhost:3000)");
  process.exit(0);
}
const appUrl = (values['app-url'] ?? process.env.APP_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/$/, '');
// The console sends its own APP_URL as the redirect; the same console reached as 127.0.0.1 is registered too.
const redirects = [appUrl, appUrl.replace('//localhost', '//127.0.0.1')].map((origin) => `${origin}/api/auth/sso/callback`);

const provider = await startOidcProvider({
  port: DEMO_SSO.port,
  clients: [{ client_id: DEMO_SSO.clientId, client_secret: DEMO_SSO.clientSecret, redirect_uris: [...new Set(redirects)] }],
  accounts: DEMO_SSO.accounts.map((a) => ({ ...a })),
});
console.log(
  [
    `Demo identity provider at ${provider.issuer} (client ${DEMO_SSO.clientId}, redirect ${redirects[0]}).`,
    `Sign in to the console as ${DEMO_SSO.accounts.map((a) => a.email).join(' or ')}; any password. Ctrl-C stops it.`,
  ].join('\n'),
);
const stop = () => void provider.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
