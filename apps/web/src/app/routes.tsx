import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { PageLoading } from '@/components/page-loading';
import { PATHS } from '@/lib/paths';
import { RequireAuth, RoleGate, toOrgsPath } from './guards';

// The shell and each page are chunks of their own: a visitor of /login loads no menus or sheets.
const AppShell = lazy(() => import('./shell/AppShell'));
const WelcomePage = lazy(() => import('@/features/auth/pages/WelcomePage'));
const LoginPage = lazy(() => import('@/features/auth/pages/LoginPage'));
const ResetPasswordPage = lazy(() => import('@/features/auth/pages/ResetPasswordPage'));
const UpdatePasswordPage = lazy(() => import('@/features/auth/pages/UpdatePasswordPage'));
const InvitationPage = lazy(() => import('@/features/users/pages/InvitationPage'));
const DashboardPage = lazy(() => import('@/features/dashboard/pages/DashboardPage'));
const OrganizationsPage = lazy(() => import('@/features/organizations/pages/OrganizationsPage'));
const TeamPage = lazy(() => import('@/features/users/pages/TeamPage'));
const ResourcesPage = lazy(() => import('@/features/resources/pages/ResourcesPage'));
const CreditLedgerPage = lazy(() => import('@/features/credits/pages/CreditLedgerPage'));
const SettingsPage = lazy(() => import('@/features/settings/pages/SettingsPage'));
const DebugPage = lazy(() => import('@/features/debug/pages/DebugPage'));
const NotFoundPage = lazy(() => import('./NotFoundPage'));

export function AppRoutes() {
  return (
    <Suspense fallback={<PageLoading className="min-h-screen" />}>
      <Routes>
        <Route path={PATHS.welcome} element={<WelcomePage />} />
        <Route path={PATHS.login} element={<LoginPage />} />
        <Route path={PATHS.resetPassword} element={<ResetPasswordPage />} />
        <Route path={PATHS.updatePassword} element={<UpdatePasswordPage />} />
        <Route path={PATHS.invitation} element={<InvitationPage />} />
        <Route path={PATHS.acceptInvitation} element={<InvitationPage />} />
        <Route element={<RequireAuth />}>
          <Route element={<AppShell />}>
            <Route path={PATHS.dashboard} element={<DashboardPage />} />
            <Route path={`${PATHS.orgs}/*`} element={<OrganizationsPage />} />
            <Route element={<RoleGate allow={(claims) => claims.isHouseRole} redirectTo={toOrgsPath} />}>
              <Route path={`${PATHS.organizations}/*`} element={<OrganizationsPage />} />
            </Route>
            <Route path={PATHS.team} element={<TeamPage />} />
            <Route path={`${PATHS.users}/*`} element={<TeamPage />} />
            <Route path={PATHS.resources} element={<ResourcesPage />} />
            <Route path={PATHS.creditLedger} element={<CreditLedgerPage />} />
            <Route path={PATHS.settings} element={<SettingsPage />} />
            <Route path={PATHS.debug} element={<DebugPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Route>
      </Routes>
    </Suspense>
  );
}
