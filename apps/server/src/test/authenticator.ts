import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A software passkey authenticator for tests: an ES256 key pair that answers WebAuthn
 * registration (attestation "none") and authentication options exactly as a browser passes a
 * real authenticator's answer on, so the server verifies real signatures.
 */

/** The CBOR the authenticator speaks: unsigned and negative integers, byte and text strings, maps. */
function cbor(value: unknown): Buffer {
  const head = (major: number, n: number) => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    if (n < 65536) return Buffer.from([(major << 5) | 25, n >> 8, n & 255]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(n, 1);
    return b;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (value instanceof Map) {
    return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
  }
  throw new Error('unsupported CBOR value');
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64 = (data: Buffer) => data.toString('base64url');

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface SoftAuthenticatorOptions {
  rpId: string;
  origin: string;
}

export function softAuthenticator({ rpId, origin }: SoftAuthenticatorOptions) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const credentialId = randomBytes(32);
  let counter = 0;
  let userHandle: string | undefined;

  function coseKey(key: KeyObject): Buffer {
    const jwk = key.export({ format: 'jwk' });
    return cbor(
      new Map<number, unknown>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x as string, 'base64url')],
        [-3, Buffer.from(jwk.y as string, 'base64url')],
      ]),
    );
  }

  const clientData = (type: string, challenge: string, at = origin) =>
    Buffer.from(JSON.stringify({ type, challenge, origin: at, crossOrigin: false }));

  function authData(flags: number, count: number, attested?: Buffer, rp = rpId): Buffer {
    const countBytes = Buffer.alloc(4);
    countBytes.writeUInt32BE(count);
    return Buffer.concat([sha256(rp), Buffer.from([flags]), countBytes, ...(attested ? [attested] : [])]);
  }

  /** The browser's answer to registration options: a new credential, attestation "none". */
  function register(options: { challenge: string; user: { id: string } }, override: { origin?: string } = {}) {
    userHandle = options.user.id;
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, credentialId, coseKey(publicKey)]);
    const attestationObject = cbor(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData(FLAG_UP | FLAG_UV | FLAG_AT, counter, attested)],
      ]),
    );
    return {
      id: b64(credentialId),
      rawId: b64(credentialId),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64(clientData('webauthn.create', options.challenge, override.origin)),
        attestationObject: b64(attestationObject),
        transports: ['internal' as const],
      },
      clientExtensionResults: {},
    };
  }

  /**
   * The browser's answer to authentication options: the signature count moves up by one unless
   * `counter` sets it (a cloned authenticator repeats an old count).
   */
  function authenticate(options: { challenge: string }, override: { counter?: number; rpId?: string; userVerified?: boolean } = {}) {
    counter = override.counter ?? counter + 1;
    const data = authData(FLAG_UP | (override.userVerified === false ? 0 : FLAG_UV), counter, undefined, override.rpId);
    const clientDataJSON = clientData('webauthn.get', options.challenge);
    const signature = sign('sha256', Buffer.concat([data, sha256(clientDataJSON)]), privateKey);
    return {
      id: b64(credentialId),
      rawId: b64(credentialId),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(data),
        signature: b64(signature),
        ...(userHandle && { userHandle }),
      },
      clientExtensionResults: {},
    };
  }

  return { credentialId: b64(credentialId), register, authenticate };
}

export type SoftAuthenticator = ReturnType<typeof softAuthenticator>;
