import * as client from 'openid-client';
import { allowedHosts } from '../../lib/addresses.ts';
import type { SecretSealer } from '../../lib/sealer.ts';
import { providerFetch } from '../../lib/sso-fetch.ts';

/** A discovered provider is reused this long: every sign-in does not fetch its metadata (nor its keys) again. */
const CACHE_MS = 5 * 60 * 1000;
/** Organizations whose discovered provider a process keeps at most. */
const CACHE_SIZE = 1000;
/** Seconds openid-client waits for each answer of a provider. */
const TIMEOUT_SECONDS = 10;

/** The stored registration a sign-in is made with. */
export interface ProviderRegistration {
  organization_id: string;
  issuer: string;
  client_id: string;
  client_secret_sealed: string;
  updated_at: string;
}

/** The provider could not be discovered (or its secret opened): what an admin is told. */
export class ProviderUnreachable extends Error {}

/** A short, secret-free reason from openid-client or the network, for the admin's message and the audit log. */
export function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, 200);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  const code = (error as { code?: unknown }).code;
  return `${typeof code === 'string' ? `${code} ` : ''}${error.message}${cause}`.slice(0, 300);
}

/**
 * The provider's answer at the callback exchanged for its tokens, once openid-client has checked
 * it against what the sign-in started with: its state, its nonce, its PKCE verifier, and an ID
 * token; given `maxAge` (seconds), also that the person signed in at the provider no longer ago.
 */
export function exchangeCode(
  configuration: client.Configuration,
  currentUrl: URL,
  started: { verifier: string; state: string; nonce: string; maxAge?: number },
) {
  return client.authorizationCodeGrant(configuration, currentUrl, {
    pkceCodeVerifier: started.verifier,
    expectedState: started.state,
    expectedNonce: started.nonce,
    idTokenExpected: true,
    ...(started.maxAge !== undefined && { maxAge: started.maxAge }),
  });
}

/**
 * openid-client, set up the way every provider is reached: through the guarded fetch, plain
 * http only to a host the configuration allows (a developer's or a test's provider), and the
 * client authenticating as the provider prefers (client_secret_basic, the default of the
 * standard, else client_secret_post).
 */
export function createOidcClients({ identityAllowedHosts, sealer }: { identityAllowedHosts: string[]; sealer: SecretSealer }) {
  const allowed = allowedHosts(identityAllowedHosts);
  const fetcher = providerFetch(allowed) as unknown as client.CustomFetch;
  const cache = new Map<string, { key: string; configuration: client.Configuration; until: number }>();

  function prepare(configuration: client.Configuration, issuer: URL): client.Configuration {
    configuration[client.customFetch] = fetcher;
    configuration.timeout = TIMEOUT_SECONDS;
    // The ID token's signature is checked against the provider's published keys too, not
    // only the TLS connection it came over (which proves nothing on an allowed http host).
    client.enableNonRepudiationChecks(configuration);
    if (issuer.protocol === 'http:' && allowed.host(issuer.hostname)) client.allowInsecureRequests(configuration);
    return configuration;
  }

  /** Discovers the provider at `issuer` (its metadata must name that very issuer) for this client. */
  async function discover(issuer: string, clientId: string, secret: string): Promise<client.Configuration> {
    const url = new URL(issuer);
    const insecure = url.protocol === 'http:' && allowed.host(url.hostname);
    let discovered: client.Configuration;
    try {
      discovered = await client.discovery(url, clientId, secret, undefined, {
        [client.customFetch]: fetcher,
        timeout: TIMEOUT_SECONDS,
        ...(insecure && { execute: [client.allowInsecureRequests] }),
      });
    } catch (error) {
      throw new ProviderUnreachable(reasonOf(error));
    }
    const metadata = discovered.serverMetadata();
    if (!metadata.authorization_endpoint || !metadata.token_endpoint) {
      throw new ProviderUnreachable('its metadata names no authorization or token endpoint');
    }
    const methods = metadata.token_endpoint_auth_methods_supported;
    const auth =
      !methods || methods.includes('client_secret_basic')
        ? client.ClientSecretBasic(secret)
        : methods.includes('client_secret_post')
          ? client.ClientSecretPost(secret)
          : null;
    if (!auth) throw new ProviderUnreachable('it accepts neither client_secret_basic nor client_secret_post at its token endpoint');
    return prepare(new client.Configuration(metadata, clientId, { client_secret: secret }, auth), url);
  }

  /**
   * The discovered provider of an organization's registration, kept a few minutes per
   * organization and registration (a changed one is discovered again).
   */
  async function configurationFor(registration: ProviderRegistration): Promise<client.Configuration> {
    const key = `${registration.issuer} ${registration.client_id} ${registration.updated_at}`;
    const cached = cache.get(registration.organization_id);
    if (cached && cached.key === key && cached.until > Date.now()) return cached.configuration;
    const secret = sealer.open(registration.client_secret_sealed);
    if (secret === null) throw new ProviderUnreachable('its client secret was sealed under another server secret: enter it again');
    const configuration = await discover(registration.issuer, registration.client_id, secret);
    cache.delete(registration.organization_id);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(registration.organization_id, { key, configuration, until: Date.now() + CACHE_MS });
    return configuration;
  }

  return { discover, configurationFor };
}
export type OidcClients = ReturnType<typeof createOidcClients>;
