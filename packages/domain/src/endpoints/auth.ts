import { endpoint } from '../contract.ts';
import { passwordBodySchema, recoverBodySchema, recoverResponseSchema, sessionSchema, signInBodySchema } from '../schemas/auth.ts';
import { okSchema } from '../schemas/common.ts';
import { secondFactorBodySchema, signInResultSchema } from '../schemas/factors.ts';
import { stepUpBodySchema, stepUpResultSchema, stepUpStatusSchema } from '../schemas/step-up.ts';
import { authenticationOptionsSchema, passkeyOptionsBodySchema, passkeySignInBodySchema } from '../schemas/passkeys.ts';

export const authEndpoints = {
  signIn: endpoint({
    operationId: 'signIn',
    method: 'POST',
    path: '/auth/sign-in',
    summary: 'Sign in with e-mail and password: a session, or a challenge when the person has a second factor',
    tags: ['auth'],
    auth: 'public',
    body: signInBodySchema,
    responses: { 200: signInResultSchema },
    errors: [401, 429],
  }),
  secondFactor: endpoint({
    operationId: 'answerSignInChallenge',
    method: 'POST',
    path: '/auth/sign-in/second-factor',
    summary:
      "Answer a sign-in challenge with a code from the authenticator app, a recovery code, or a passkey's answer; the session starts here",
    tags: ['auth'],
    auth: 'public',
    body: secondFactorBodySchema,
    responses: { 200: sessionSchema },
    errors: [401, 429],
  }),
  refresh: endpoint({
    operationId: 'refreshSession',
    method: 'POST',
    path: '/auth/refresh',
    summary: 'Rotate the refresh cookie and get a new access token',
    tags: ['auth'],
    auth: 'public',
    responses: { 200: sessionSchema },
    errors: [401],
  }),
  signOut: endpoint({
    operationId: 'signOut',
    method: 'POST',
    path: '/auth/sign-out',
    summary: 'End the current session',
    tags: ['auth'],
    auth: 'public',
    responses: { 200: okSchema },
  }),
  recover: endpoint({
    operationId: 'requestPasswordReset',
    method: 'POST',
    path: '/auth/recover',
    summary: 'Send a password reset link (same answer whether or not the account exists)',
    tags: ['auth'],
    auth: 'public',
    body: recoverBodySchema,
    responses: { 200: recoverResponseSchema },
    errors: [429],
  }),
  password: endpoint({
    operationId: 'setPassword',
    method: 'POST',
    path: '/auth/password',
    summary: 'Set a new password with a reset token, or change it when signed in',
    tags: ['auth'],
    auth: 'public',
    body: passwordBodySchema,
    responses: { 200: okSchema },
    errors: [401, 429],
  }),
  // Step-up: proving it is you again before moving money or secrets.
  stepUpStatus: endpoint({
    operationId: 'getStepUpStatus',
    method: 'GET',
    path: '/auth/step-up',
    summary: 'How the signed-in person steps up (their factor, or their password without one) and until when the last proof holds',
    tags: ['auth'],
    auth: 'session',
    responses: { 200: stepUpStatusSchema },
  }),
  stepUp: endpoint({
    operationId: 'stepUp',
    method: 'POST',
    path: '/auth/step-up',
    summary: 'Prove it is you again (a second factor, or the password without one) so this session may move money and secrets',
    tags: ['auth'],
    auth: 'session',
    body: stepUpBodySchema,
    responses: { 200: stepUpResultSchema },
    // 422: a passkey's answer that does not verify (a wrong code or password is a 400 on its field).
    errors: [422],
  }),
  // Passkeys
  passkeyOptions: endpoint({
    operationId: 'startPasskeySignIn',
    method: 'POST',
    path: '/auth/passkey/options',
    summary:
      "Options for the browser's passkey sign-in: for a sign-in challenge's second step (its token), or passwordless (no token); good once for a few minutes",
    tags: ['auth'],
    auth: 'public',
    body: passkeyOptionsBodySchema,
    responses: { 200: authenticationOptionsSchema },
    errors: [401, 429],
  }),
  passkeySignIn: endpoint({
    operationId: 'signInWithPasskey',
    method: 'POST',
    path: '/auth/passkey/sign-in',
    summary: "Sign in with a passkey alone (no e-mail or password): the browser's answer to passwordless options; the session starts here",
    tags: ['auth'],
    auth: 'public',
    body: passkeySignInBodySchema,
    responses: { 200: sessionSchema },
    errors: [401, 429],
  }),
};
