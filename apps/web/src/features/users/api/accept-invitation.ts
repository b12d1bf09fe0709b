import type { AcceptResult } from '@console/domain';
import { request } from '@/lib/api';

/**
 * POST /api/invitations/accept: with the session's bearer when signed in. Answers whether
 * the invitee must register, sign in first, or has joined.
 */
export function acceptInvitation(token: string): Promise<AcceptResult> {
  return request<AcceptResult>('/api/invitations/accept', { method: 'POST', body: { token }, refreshOn401: false });
}
