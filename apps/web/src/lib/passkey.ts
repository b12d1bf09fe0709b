import {
  MESSAGES,
  authenticationResponseSchema,
  registrationResponseSchema,
  type AuthenticationOptions,
  type AuthenticationResponse,
  type RegistrationOptions,
  type RegistrationResponse,
} from '@console/domain';
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser';

/**
 * The browser's passkey calls, through one object: tests put their own answers in it, which a
 * module mock cannot do where test files share their modules.
 */
export const browserPasskeys = { browserSupportsWebAuthn, startAuthentication, startRegistration };

/** A passkey ceremony the browser refused, or the person cancelled: its message says which, in words a person reads. */
export class PasskeyError extends Error {}

/**
 * The browser's refusals as a person reads them: cancelled or not allowed (the person closed the
 * prompt, or the time ran out), no WebAuthn at all, or anything else the browser said.
 */
function passkeyFailure(error: unknown): PasskeyError {
  const name = error instanceof Error ? error.name : '';
  const code = (error as { code?: unknown } | null)?.code;
  if (name === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED')
    return new PasskeyError(MESSAGES.auth.passkeyCancelled);
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return new PasskeyError(MESSAGES.auth.passkeyRefused);
  return new PasskeyError(error instanceof Error && error.message ? error.message : MESSAGES.auth.passkeyRefused);
}

/** The browser's answer in the API's shape; one the API would refuse is said so in words, never as the schema's report. */
function asApiAnswer<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } }, answer: unknown): T {
  const parsed = schema.safeParse(answer);
  if (!parsed.success) throw new PasskeyError(MESSAGES.auth.passkeyRefused);
  return parsed.data;
}

function ensureSupported() {
  if (!browserPasskeys.browserSupportsWebAuthn()) throw new PasskeyError(MESSAGES.auth.passkeyUnsupported);
}

/** Asks the browser to make a passkey for the server's options; the answer as the API takes it. */
export async function createPasskey(options: RegistrationOptions): Promise<RegistrationResponse> {
  ensureSupported();
  let answer: unknown;
  try {
    // The contract's options are the browser library's options, as JSON.
    answer = await browserPasskeys.startRegistration({ optionsJSON: options as Parameters<typeof startRegistration>[0]['optionsJSON'] });
  } catch (error) {
    throw passkeyFailure(error);
  }
  return asApiAnswer(registrationResponseSchema, answer);
}

/** Asks the browser to sign the server's options with a passkey; the answer as the API takes it. */
export async function signWithPasskey(options: AuthenticationOptions): Promise<AuthenticationResponse> {
  ensureSupported();
  let answer: unknown;
  try {
    answer = await browserPasskeys.startAuthentication({
      optionsJSON: options as Parameters<typeof startAuthentication>[0]['optionsJSON'],
    });
  } catch (error) {
    throw passkeyFailure(error);
  }
  return asApiAnswer(authenticationResponseSchema, answer);
}
