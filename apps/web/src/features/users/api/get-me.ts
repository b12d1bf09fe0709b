import type { UserProfile } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { request } from '@/lib/api';

export const meQueryKey = ['users', 'me'] as const;

/** The signed-in user's profile with its organization. */
export function getMe(): Promise<UserProfile> {
  return request('/api/users/me');
}

export function useMe() {
  return useQuery({ queryKey: meQueryKey, queryFn: getMe });
}
