import type { Actor, NormalizedClaims } from '@console/domain';
import { Navigate, Outlet, useLocation, type Location } from 'react-router';
import { PageLoading } from '@/components/page-loading';
import { useAuth } from '@/lib/auth';
import { loginHref, PATHS } from '@/lib/paths';
import { useViewer } from '@/lib/use-viewer';

/** Signed-in users only; others go to /login, which sends them back here afterwards. */
export function RequireAuth() {
  const { status } = useAuth();
  const location = useLocation();
  // The start-up refresh may still restore the session: wait rather than redirect.
  if (status === 'loading') return <PageLoading className="min-h-screen" />;
  if (status === 'signed-out') return <Navigate to={loginHref(`${location.pathname}${location.search}${location.hash}`)} replace />;
  return <Outlet />;
}

interface RoleGateProps {
  allow(claims: NormalizedClaims): boolean;
  /** Where refused users go: /dashboard unless the route says otherwise. */
  redirectTo?: (location: Location) => string;
}

/** A role-gated area inside the signed-in shell. */
export function RoleGate({ allow, redirectTo = () => PATHS.dashboard }: RoleGateProps) {
  const { claims } = useAuth();
  const location = useLocation();
  if (claims && allow(claims)) return <Outlet />;
  return <Navigate to={redirectTo(location)} replace />;
}

/** /organizations/* is the house roles' copy of /orgs/*; others land on the same sub-path there. */
export function toOrgsPath({ pathname, search }: Location): string {
  return `${PATHS.orgs}${pathname.slice(PATHS.organizations.length)}${search}`;
}

/** An area for the people a domain predicate allows; others go to /dashboard. */
export function ViewerGate({ allow }: { allow(viewer: Actor): boolean }) {
  const viewer = useViewer();
  if (viewer && allow(viewer)) return <Outlet />;
  return <Navigate to={PATHS.dashboard} replace />;
}
