import {
  isSeller,
  mayManageCatalog,
  mayViewActivity,
  mayViewBilling,
  mayViewIdentity,
  mayViewPrices,
  mayViewSellerBooks,
  mayViewWebhooksOf,
} from '@console/domain';
import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { PageLoading } from '@/components/page-loading';
import { PATHS } from '@/lib/paths';
import { RequireAuth, RoleGate, toOrgsPath, ViewerGate } from './guards';

// The shell and each page are chunks of their own: a visitor of /login loads no menus or sheets.
const AppShell = lazy(() => import('./shell/app-shell'));
const WelcomePage = lazy(() => import('@/features/auth/pages/welcome-page'));
const LoginPage = lazy(() => import('@/features/auth/pages/login-page'));
const ResetPasswordPage = lazy(() => import('@/features/auth/pages/reset-password-page'));
const UpdatePasswordPage = lazy(() => import('@/features/auth/pages/update-password-page'));
const InvitationPage = lazy(() => import('@/features/users/pages/invitation-page'));
const DashboardPage = lazy(() => import('@/features/dashboard/pages/dashboard-page'));
const OrgsListPage = lazy(() => import('@/features/organizations/pages/orgs-list-page'));
const OrganizationsAdminPage = lazy(() => import('@/features/organizations/pages/organizations-admin-page'));
const CreateOrganizationPage = lazy(() => import('@/features/organizations/pages/create-organization-page'));
const OrganizationDetailPage = lazy(() => import('@/features/organizations/pages/organization-detail-page'));
const EditOrganizationPage = lazy(() => import('@/features/organizations/pages/edit-organization-page'));
const AllocateCreditsPage = lazy(() => import('@/features/credits/pages/allocate-credits-page'));
const BillingPage = lazy(() => import('@/features/billing/pages/billing-page'));
const BillingManagementPage = lazy(() => import('@/features/billing/pages/billing-management-page'));
const OrganizationResourcesPage = lazy(() => import('@/features/resources/pages/organization-resources-page'));
const TeamPage = lazy(() => import('@/features/users/pages/team-page'));
const UsersPage = lazy(() => import('@/features/users/pages/users-page'));
const InviteUserPage = lazy(() => import('@/features/users/pages/invite-user-page'));
const UserDetailPage = lazy(() => import('@/features/users/pages/user-detail-page'));
const EditUserPage = lazy(() => import('@/features/users/pages/edit-user-page'));
const ResourcesPage = lazy(() => import('@/features/resources/pages/resources-page'));
const CreditLedgerPage = lazy(() => import('@/features/credits/pages/credit-ledger-page'));
const ActivityPage = lazy(() => import('@/features/activity/pages/activity-page'));
const SettingsPage = lazy(() => import('./settings-route'));
const SecurityPage = lazy(() => import('@/features/account/pages/security-page'));
const WebhooksPage = lazy(() => import('@/features/webhooks/pages/webhooks-page'));
const WebhookDeliveriesPage = lazy(() => import('@/features/webhooks/pages/webhook-deliveries-page'));
const IdentityPage = lazy(() => import('@/features/identity/pages/identity-page'));
const AgentCatalogPage = lazy(() => import('@/features/agents/pages/agent-catalog-page'));
const PricingPage = lazy(() => import('@/features/pricing/pages/pricing-page'));
const DebugPage = lazy(() => import('@/features/debug/pages/debug-page'));
const BillingDetailsPage = lazy(() => import('@/features/invoices/pages/billing-details-page'));
const InvoicesPage = lazy(() => import('@/features/invoices/pages/invoices-page'));
const InvoiceDetailPage = lazy(() => import('@/features/invoices/pages/invoice-detail-page'));
const StatementsPage = lazy(() => import('@/features/invoices/pages/statements-page'));
const NotFoundPage = lazy(() => import('./not-found-page'));

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
            <Route element={<ViewerGate allow={(viewer) => mayViewPrices(viewer, viewer.organization)} />}>
              <Route path={PATHS.pricing} element={<PricingPage />} />
            </Route>
            <Route path={PATHS.settings} element={<SettingsPage />} />
            <Route path={PATHS.security} element={<SecurityPage />} />
            {/* The own organization's admins; a frozen organization's still read them, without changing them. */}
            <Route element={<ViewerGate allow={(viewer) => mayViewWebhooksOf(viewer, viewer.organization)} />}>
              <Route path={PATHS.webhooks} element={<WebhooksPage />} />
              <Route path={`${PATHS.webhooks}/:endpointId`} element={<WebhookDeliveriesPage />} />
            </Route>
            {/* The own organization's admins, as for webhooks: single sign-on and provisioning. */}
            <Route element={<ViewerGate allow={(viewer) => mayViewIdentity(viewer, viewer.organization)} />}>
              <Route path={PATHS.identity} element={<IdentityPage />} />
            </Route>
            {/* A seller's own people read its billing details; its admins change them. */}
            <Route
              element={<ViewerGate allow={(viewer) => isSeller(viewer.organization) && mayViewSellerBooks(viewer, viewer.organization)} />}
            >
              <Route path={PATHS.billingDetails} element={<BillingDetailsPage />} />
            </Route>
            <Route element={<ViewerGate allow={mayViewBilling} />}>
              <Route path={PATHS.invoices} element={<InvoicesPage />} />
              <Route path={`${PATHS.invoices}/:invoiceId`} element={<InvoiceDetailPage />} />
              <Route path={PATHS.statements} element={<StatementsPage />} />
            </Route>
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
