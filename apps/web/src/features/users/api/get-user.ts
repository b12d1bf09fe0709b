import type { UserProfile } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { request } from '@/lib/api';
import { loadRetry } from '@/lib/load-retry';

export const userQueryKey = (id: string) => ['users', 'detail', id] as const;

export async function getUser(id: string): Promise<UserProfile> {
  const { user } = await request<{ user: UserProfile }>(`/api/users/${encodeURIComponent(id)}`);
  return user;
}

export function useUser(id: string | undefined) {
  return useQuery({ queryKey: userQueryKey(id ?? ''), queryFn: () => getUser(id!), enabled: !!id, ...loadRetry });
}
