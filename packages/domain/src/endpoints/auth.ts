import { endpoint } from '../contract.ts';
import { passwordBodySchema, recoverBodySchema, recoverResponseSchema, sessionSchema, signInBodySchema } from '../schemas/auth.ts';
import { okSchema } from '../schemas/common.ts';

export const authEndpoints = {
  signIn: endpoint({
    operationId: 'signIn',
    method: 'POST',
    path: '/auth/sign-in',
    summary: 'Sign in with e-mail and password',
    tags: ['auth'],
    auth: 'public',
    body: signInBodySchema,
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
};
