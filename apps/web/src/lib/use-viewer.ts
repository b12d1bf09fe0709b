import type { Actor } from '@console/domain';
import { useMemo } from 'react';
import { useAuth } from './auth';

/**
 * The signed-in person as the domain's policy predicates take them: the user id, the role
 * and the organization (id and type) from the session's claims, and the organization's
 * status from the session's profile. This is the console's one source of "my organization";
 * null when signed out or when the token names no organization.
 */
export function useViewer(): Actor | null {
  const { claims, user } = useAuth();
  return useMemo(() => {
    const id = claims?.org_id;
    const type = claims?.organization_type;
    if (!claims || !id || !type) return null;
    const own = user?.organization.id === id ? user.organization : undefined;
    return {
      userId: claims.user_id,
      role: claims.role,
      organization: { id, org_type: type, status: own?.status, ancestor_status: own?.ancestor_status },
    };
  }, [claims, user]);
}
