import { createHmac, randomBytes } from 'node:crypto';

/** A new signing secret in the Standard Webhooks form: `whsec_` and 24 random bytes in base64. */
export function makeSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * The signature header of a delivery (Standard Webhooks): `v1,<base64 HMAC-SHA256>` of
 * `<id>.<timestamp>.<body>` under each secret, space-separated, so during a rotation's grace
 * period a receiver holding either secret verifies it.
 */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
    })
    .join(' ');
}
