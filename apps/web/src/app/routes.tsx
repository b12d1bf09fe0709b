import { mayManageCatalog, mayViewActivity } from '@console/domain';
import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { PageLoading } from '@/components/page-loading';
import { PATHS } from '@/lib/paths';
import { RequireAuth, RoleGate, toOrgsPath, ViewerGate } from './guards';

// The shell and each page are chunks of their own: a visitor of /login loads no menus or sheets.
const AppShell = lazy(() => import('./shell/AppShell'));
const WelcomePage = lazy(() => import('@/features/auth/pages/WelcomePage'));
const LoginPage = lazy(() => import('@/features/auth/pages/LoginPage'));
const ResetPasswordPage = lazy(() => import('@/features/auth/pages/ResetPasswordPage'));
const UpdatePasswordPage = lazy(() => import('@/features/auth/pages/UpdatePasswordPage'));
const InvitationPage = lazy(() => import('@/features/users/pages/InvitationPage'));
const DashboardPage = lazy(() => import('@/features/dashboard/pages/DashboardPage'));
const OrgsListPage = lazy(() => import('@/features/organizations/pages/OrgsListPage'));
const OrganizationsAdminPage = lazy(() => import('@/features/organizations/pages/OrganizationsAdminPage'));
const CreateOrganizationPage = lazy(() => import('@/features/organizations/pages/CreateOrganizationPage'));
const OrganizationDetailPage = lazy(() => import('@/features/organizations/pages/OrganizationDetailPage'));
const EditOrganizationPage = lazy(() => import('@/features/organizations/pages/EditOrganizationPage'));
const AllocateCreditsPage = lazy(() => import('@/features/credits/pages/AllocateCreditsPage'));
const BillingPage = lazy(() => import('@/features/billing/pages/BillingPage'));
const BillingManagementPage = lazy(() => import('@/features/billing/pages/BillingManagementPage'));
const OrganizationResourcesPage = lazy(() => import('@/features/resources/pages/OrganizationResourcesPage'));
const TeamPage = lazy(() => import('@/features/users/pages/TeamPage'));
const UsersPage = lazy(() => import('@/features/users/pages/UsersPage'));
const InviteUserPage = lazy(() => import('@/features/users/pages/InviteUserPage'));
const UserDetailPage = lazy(() => import('@/features/users/pages/UserDetailPage'));
const EditUserPage = lazy(() => import('@/features/users/pages/EditUserPage'));
const ResourcesPage = lazy(() => import('@/features/resources/pages/ResourcesPage'));
const CreditLedgerPage = lazy(() => import('@/features/credits/pages/CreditLedgerPage'));
const ActivityPage = lazy(() => import('@/features/activity/pages/ActivityPage'));
const SettingsPage = lazy(() => import('./SettingsRoute'));
const AgentCatalogPage = lazy(() => import('@/features/agents/pages/AgentCatalogPage'));
const DebugPage = lazy(() => import('@/features/debug/pages/DebugPage'));
const NotFoundPage = lazy(() => import('./NotFoundPage'));

/**
 * The organization sub-routes, identical under /orgs and /organizations;
 * pages read their base from the URL. Any other sub-path goes back to the base.
 */
function organizationRoutes(base: string, index: React.ReactNode) {
  return (
    <Route path={base}>
      <Route index element={index} />
      <Route path="create" element={<CreateOrganizationPage />} />
      <Route path=":id" element={<OrganizationDetailPage />} />
      <Route path=":id/edit" element={<EditOrganizationPage />} />
      <Route path=":id/allocate-credits" element={<AllocateCreditsPage />} />
      <Route path=":id/billing" element={<BillingPage />} />
      <Route path=":id/billing-management" element={<BillingManagementPage />} />
      <Route path=":id/resources" element={<OrganizationResourcesPage />} />
      <Route path="*" element={<Navigate to={base} replace />} />
    </Route>
  );
}

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
            {organizationRoutes(PATHS.orgs, <OrgsListPage />)}
            <Route element={<RoleGate allow={(claims) => claims.isHouseRole} redirectTo={toOrgsPath} />}>
              {organizationRoutes(PATHS.organizations, <OrganizationsAdminPage />)}
            </Route>
            <Route path={PATHS.team} element={<TeamPage />} />
            <Route path={PATHS.users} element={<UsersPage />} />
            <Route path={`${PATHS.users}/create`} element={<InviteUserPage />} />
            <Route path={`${PATHS.users}/:id`} element={<UserDetailPage />} />
            <Route path={`${PATHS.users}/:id/edit`} element={<EditUserPage />} />
            <Route path={PATHS.resources} element={<ResourcesPage />} />
            <Route path={PATHS.creditLedger} element={<CreditLedgerPage />} />
            <Route element={<ViewerGate allow={mayViewActivity} />}>
              <Route path={PATHS.activity} element={<ActivityPage />} />
            </Route>
            <Route path={PATHS.settings} element={<SettingsPage />} />
            <Route element={<ViewerGate allow={mayManageCatalog} />}>
              <Route path={PATHS.agentCatalog} element={<AgentCatalogPage />} />
            </Route>
            <Route path={PATHS.debug} element={<DebugPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Route>
      </Routes>
    </Suspense>
  );
}
