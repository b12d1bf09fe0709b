import type { Kysely } from 'kysely';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES, frozenStanding, type ApiScope } from '@console/domain';
import type { DB } from '../db/schema.ts';
import { auditKeyRefusal, isKeyRefusal, parse, verifyKey, type KeyRefusal, type VerifiedKey } from './api-key.ts';
import { bearerToken } from './caller.ts';
import { AppError, ForbiddenError, UnauthorizedError } from './errors.ts';
import type { KeyUseCounter } from './key-use.ts';
import type { LiveKeys } from './live-keys.ts';
import type { MachineLimiter } from './machine-limits.ts';
import { clientInfo } from './request-info.ts';

const m = MESSAGES.usage;

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified API key of a machine route's request. */
    apiKey: VerifiedKey | null;
  }
}

/** Authenticates a machine route's request by its API key, for the endpoint's scope. */
export type KeyAuthenticator = (request: FastifyRequest, reply: FastifyReply, scope: ApiScope | undefined) => Promise<void>;

/**
 * The bearer must be an API key (a session's access token is refused here, as a key is on
 * every session route): unknown or revoked, 401 `invalid_api_key`; expired, 401
 * `api_key_expired`; its previous secret after the roll's grace period, 401 `api_key_rolled`
 * (these two are audited, at most once per key and reason an hour, and a failed audit write
 * still answers the 401); its organization deleted, 401; it or one above
 * it suspended or inactive, 403 with that standing; the endpoint's scope missing, 403. Every
 * 401 counts against the sender's address: a slot of its allowance is held before the key is
 * looked up and given back when the key verifies. Past that allowance the address is answered
 * 429 without a lookup, unless its key can be real (its hash is a live key's), so a flood of
 * made-up keys costs no database work while a valid key from the same address is served. A
 * key that passes is held to its own and its subtrees' limits (429, nothing done), counted as
 * used and put on the request.
 */
export function createKeyAuthenticator(db: Kysely<DB>, uses: KeyUseCounter, limits: MachineLimiter, live: LiveKeys): KeyAuthenticator {
  return async function authenticateKey(request, reply, scope) {
    const parsed = parse(bearerToken(request));
    const slot = limits.reserve(request.ip);
    // Past the allowance only a key that can be real is looked up: a made-up one costs no database work.
    if (!slot && !(parsed && (await live.mayBeLive(parsed.key)))) throw limits.refuseAddress(request.ip, reply);
    let refused = false;
    const refuse = (error: UnauthorizedError) => {
      refused = true;
      if (slot) slot.keep();
      else limits.refused(request.ip);
      return error;
    };
    let key: VerifiedKey;
    try {
      if (!parsed) throw refuse(new UnauthorizedError(m.keyRequired, 'api_key_required'));
      const verdict = await verifyKey(db, parsed.key, { countUse: false });
      if (isKeyRefusal(verdict) || verdict.organization.deleted) live.forget(parsed.key);
      if (isKeyRefusal(verdict)) {
        await auditKeyRefusal(db, verdict, clientInfo(request)).catch((error: unknown) =>
          request.log.warn({ err: error }, 'API key refusal not audited'),
        );
        throw refuse(refusalError(verdict));
      }
      if (verdict.organization.deleted) throw refuse(new UnauthorizedError(m.keyOrganizationDeleted, 'invalid_api_key'));
      key = verdict;
    } finally {
      // A key that verified, or a lookup that failed, takes nothing from the address's allowance.
      if (!refused) slot?.release();
    }
    limits.admit(key, reply);
    const frozen = frozenStanding({ role: '', organization: key.organization });
    if (frozen) throw new AppError(403, `organization_${frozen.status}`, m.keyOrganizationFrozen(frozen.status, frozen.where));
    if (scope && !key.scopes.includes(scope)) throw new ForbiddenError(m.missingScope(scope));
    uses.count(key.id);
    request.apiKey = key;
  };
}

function refusalError(refusal: KeyRefusal): UnauthorizedError {
  if (refusal.refused === 'expired') return new UnauthorizedError(m.keyExpired, 'api_key_expired');
  if (refusal.refused === 'rolled') return new UnauthorizedError(m.keyRolled, 'api_key_rolled');
  return new UnauthorizedError(m.invalidKey, 'invalid_api_key');
}

/** The key of a route that ran `authenticateKey`. */
export function apiKeyOf(request: FastifyRequest): VerifiedKey {
  if (!request.apiKey) throw new UnauthorizedError(m.keyRequired, 'api_key_required');
  return request.apiKey;
}
