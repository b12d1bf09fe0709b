import { useQuery } from '@tanstack/react-query';
import { request } from '@/lib/api';
import { loadRetry } from '@/lib/load-retry';

export interface OutboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  link: string | null;
  created_at: string;
}

export const outboxQueryKey = ['debug', 'outbox'] as const;

/** The last 50 messages of the mail outbox (house admins only; the server refuses others). */
export function getOutbox(): Promise<{ messages: OutboxMessage[] }> {
  return request('/api/debug/outbox');
}

export function useOutbox(options: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: outboxQueryKey, queryFn: getOutbox, enabled: options.enabled ?? true, ...loadRetry });
}
