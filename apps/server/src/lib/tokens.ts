import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash, createSecretKey, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { SESSION } from '@console/domain';
import { UnauthorizedError } from './errors.ts';

const ISSUER = 'org-console';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);
const AUDIENCE = 'authenticated';

/** The JWT secret: JWT_SECRET, or one generated once and kept in DATA_DIR. */
export function resolveJwtSecret(configured: string | null, dataDir: string): string {
  if (configured) return configured;
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/**
 * Server-owned claims only: nothing a user can edit grants rights, and role and
 * organization are read from the database on every request anyway.
 */
export interface AccessClaims {
  userId: string;
  email: string;
  sessionId: string;
  role: string;
  orgId: string;
  orgType: string;
  orgName: string;
}

export interface TokenService {
  sign(claims: AccessClaims): Promise<{ token: string; expiresAt: number }>;
  verify(token: string): Promise<{ userId: string; sessionId: string }>;
}

/** How many verified tokens a process remembers (about 200 bytes each). */
const VERIFIED_CACHE_SIZE = 10_000;

export function createTokenService(secret: string, ttlSeconds: number = SESSION.accessTokenTtlSeconds): TokenService {
  // A KeyObject made once: jose would import raw bytes again on every sign and verify.
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  /**
   * Tokens whose signature and claims jose has verified: a client sends
   * the same token with every request for its 15 minutes, and the HMAC check (WebCrypto, a
   * job on the thread pool) was the largest part of an authenticated request's CPU. Only a
   * verified token gets in, so nothing unsigned is ever taken from here; its expiry is still
   * checked on each use, and whether its session and user are still live is read from the
   * database on every request regardless. Oldest first out when full. Kept by the token's
   * SHA-256, like every other secret: a heap dump shows no usable token.
   */
  const verified = new Map<string, { userId: string; sessionId: string; exp: number }>();
  return {
    async sign(claims) {
      const now = Math.floor(Date.now() / 1000);
      const expiresAt = now + ttlSeconds;
      const token = await new SignJWT({
        email: claims.email,
        role: 'authenticated',
        sid: claims.sessionId,
        app_metadata: {
          role: claims.role,
          org_id: claims.orgId,
          org_type: claims.orgType,
          org_name: claims.orgName,
        },
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(now)
        .setExpirationTime(expiresAt)
        .sign(key);
      return { token, expiresAt };
    },
    async verify(token) {
      const digest = createHash('sha256').update(token).digest('base64');
      const known = verified.get(digest);
      if (known) {
        // As jose decides: expired once the current second reaches exp.
        if (known.exp > Math.floor(Date.now() / 1000)) return { userId: known.userId, sessionId: known.sessionId };
        verified.delete(digest);
        throw new UnauthorizedError('Token expired', 'token_expired');
      }
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
          // jose lets a token without exp live forever; ours always carry one.
          requiredClaims: ['exp'],
        });
        // Ours name the user and the session by uuid; anything else never reaches a query.
        if (!isUuid(payload.sub) || !isUuid(payload.sid)) throw new UnauthorizedError('Invalid token claims', 'invalid_token');
        if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!);
        verified.set(digest, { userId: payload.sub, sessionId: payload.sid, exp: payload.exp! });
        return { userId: payload.sub, sessionId: payload.sid };
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) {
          throw new UnauthorizedError('Token expired', 'token_expired');
        }
        if (error instanceof UnauthorizedError) throw error;
        throw new UnauthorizedError('Invalid token', 'invalid_token');
      }
    },
  };
}
