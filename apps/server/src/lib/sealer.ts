import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** What a sealer's key is for: each purpose derives its own key, so one kind of secret never opens another. */
export type SealPurpose = 'webhook-signing-secrets' | 'totp-secrets' | 'identity-secrets';

/**
 * Secrets needed in clear later (webhook signing secrets, authenticator app secrets) cannot
 * be hashed: they are stored sealed (AES-256-GCM) under a key derived from the server's
 * secret, which the database does not hold, so a copy of the database alone does not give
 * them away. A sealed value is `v1.<iv>.<tag>.<ciphertext>` in base64url; opening checks its tag.
 */
export function secretSealer(serverSecret: string, purpose: SealPurpose = 'webhook-signing-secrets') {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, 'org-console', purpose, 32));
  return {
    seal(secret: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), body].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
    },
    /** The secret, or null when it was sealed under another server secret (JWT_SECRET changed). */
    open(sealed: string): string | null {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || !body) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}
export type SecretSealer = ReturnType<typeof secretSealer>;
