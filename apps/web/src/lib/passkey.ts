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

function ensureSupported() {
  if (!browserSupportsWebAuthn()) throw new PasskeyError(MESSAGES.auth.passkeyUnsupported);
}

/** Asks the browser to make a passkey for the server's options; the answer as the API takes it. */
export async function createPasskey(options: RegistrationOptions): Promise<RegistrationResponse> {
  ensureSupported();
  try {
    // The contract's options are the browser library's options, as JSON.
    return registrationResponseSchema.parse(
      await startRegistration({ optionsJSON: options as Parameters<typeof startRegistration>[0]['optionsJSON'] }),
    );
  } catch (error) {
    throw passkeyFailure(error);
  }
}

/** Asks the browser to sign the server's options with a passkey; the answer as the API takes it. */
export async function signWithPasskey(options: AuthenticationOptions): Promise<AuthenticationResponse> {
  ensureSupported();
  try {
    return authenticationResponseSchema.parse(
      await startAuthentication({ optionsJSON: options as Parameters<typeof startAuthentication>[0]['optionsJSON'] }),
    );
  } catch (error) {
    throw passkeyFailure(error);
  }
}
