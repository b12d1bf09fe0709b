import { can, MESSAGES } from '@console/domain';
import { AlertCircle, CreditCard, LifeBuoy, Gift, UserRound } from 'lucide-react';
import { Link } from 'react-router';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useBilling } from '@/features/billing/api/get-billing';
import { AgentLimitStatusCard } from '@/features/billing/components/AgentLimitStatusCard';
import { CreditBalanceCard } from '@/features/billing/components/CreditBalanceCard';
import { LoadError } from '@/features/billing/components/LoadError';
import { RecentTransactionsCard } from '@/features/credits/components/RecentTransactionsCard';
import { useMe } from '@/features/users/api/get-me';
import { useAuth } from '@/lib/auth';
import { PATHS } from '@/lib/paths';

const m = MESSAGES.billingPages;

function Header() {
  return (
    <header className="space-y-1">
      <h1 className="text-2xl font-semibold tracking-tight">{m.settingsTitle}</h1>
      <p className="text-muted-foreground">{m.settingsSubtitle}</p>
    </header>
  );
}

/** The two metric cards: the credit balance and Agent Limit Status, from the organization's billing settings. */
function BillingMetrics({ organizationId, orgType }: { organizationId: string; orgType: Parameters<typeof AgentLimitStatusCard>[0]['orgType'] }) {
  const billing = useBilling(organizationId);
  if (billing.isPending) {
    return (
      <div role="status" className="grid gap-4 md:grid-cols-2">
        <span className="sr-only">Loading</span>
        <Skeleton className="h-40 w-full" />
        <Skeleton className="h-40 w-full" />
      </div>
    );
  }
  if (billing.isError) return <LoadError error={billing.error} title={MESSAGES.billing.loadFailed} />;
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <CreditBalanceCard balance={billing.data.billing_settings.credit_balance} />
      <AgentLimitStatusCard organizationId={organizationId} orgType={orgType} billing={billing.data} />
    </div>
  );
}

/** /settings: account and billing of the user's organization, recent credits, profile and support (spec 2 section 2). */
export default function SettingsPage() {
  const me = useMe();
  const { claims } = useAuth();

  if (me.isPending) {
    return (
      <section className="space-y-6">
        <Header />
        <div role="status" className="space-y-4">
          <span className="sr-only">Loading</span>
          <Skeleton className="h-28 w-full" />
          <Skeleton className="h-40 w-full" />
          <Skeleton className="h-40 w-full" />
        </div>
      </section>
    );
  }
  if (me.isError) {
    return (
      <section className="space-y-6">
        <Header />
        <Alert variant="destructive">
          <AlertCircle aria-hidden />
          <AlertTitle>{m.settingsLoadFailed}</AlertTitle>
          <AlertDescription>{me.error.message}</AlertDescription>
        </Alert>
      </section>
    );
  }

  const user = me.data;
  const organization = user.organization;
  if (!organization) {
    return (
      <section className="space-y-6">
        <Header />
        <p className="text-muted-foreground">{MESSAGES.organizations.selectOrganization}</p>
      </section>
    );
  }

  const role = user.role || claims?.role;
  const houseRole = claims?.isHouseRole ?? role?.startsWith('house_') ?? false;
  const billingHref = `${houseRole ? PATHS.organizations : PATHS.orgs}/${organization.id}/billing`;
  // Manage Billing needs the limit or the allocate permission (spec 2 section 6).
  const mayManageBilling = can(role, 'organizations.manage_activated_agent_limit') || can(role, 'organizations.allocate_credits');
  const fullName = [user.first_name, user.last_name].filter(Boolean).join(' ');

  return (
    <section className="space-y-6">
      <Header />

      <Card className="gap-4">
        <CardHeader>
          <CardTitle className="flex items-center gap-2 text-base">
            <CreditCard className="size-4 text-muted-foreground" aria-hidden />
            {m.accountBilling}
          </CardTitle>
          <CardDescription>
            {organization.name} · {m.accountBillingBody}
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-wrap gap-2">
          {mayManageBilling && (
            <Button asChild size="sm">
              <Link to={billingHref}>{m.manageBilling}</Link>
            </Button>
          )}
          <Button asChild size="sm" variant="outline">
            <Link to={PATHS.resources}>{m.viewResources}</Link>
          </Button>
        </CardContent>
      </Card>

      <BillingMetrics organizationId={organization.id} orgType={organization.org_type} />

      <RecentTransactionsCard organizationId={organization.id} />

      <Card className="gap-0 py-0">
        <div className="flex flex-wrap items-center justify-between gap-3 border-b px-6 py-4">
          <div className="flex min-w-0 items-center gap-3">
            <UserRound className="size-4 shrink-0 text-muted-foreground" aria-hidden />
            <div className="min-w-0">
              <h2 className="font-medium">{m.yourProfile}</h2>
              <p className="truncate text-sm text-muted-foreground">{fullName ? `${fullName} · ${user.email}` : user.email}</p>
            </div>
          </div>
          <Button asChild size="sm" variant="outline">
            <Link to={`${PATHS.users}/${user.id}/edit`}>{m.editProfile}</Link>
          </Button>
        </div>
        <div className="flex items-center gap-3 px-6 py-4">
          <CreditCard className="size-4 shrink-0 text-muted-foreground" aria-hidden />
          <div className="min-w-0">
            <h2 className="font-medium">{m.billingPayments}</h2>
            <p className="text-sm text-muted-foreground">{m.noBillingPortal}</p>
          </div>
        </div>
      </Card>

      <div className="grid gap-4 md:grid-cols-2">
        <Card className="gap-3">
          <CardHeader>
            <CardTitle className="flex items-center gap-2 text-base">
              <LifeBuoy className="size-4 text-muted-foreground" aria-hidden />
              {m.communitySupport}
            </CardTitle>
          </CardHeader>
          <CardContent className="text-sm">
            <p className="text-muted-foreground">{m.supportBody}</p>
            <p className="font-medium">{m.supportContact}</p>
          </CardContent>
        </Card>
        <Card className="gap-3">
          <CardHeader>
            <CardTitle className="flex items-center gap-2 text-base">
              <Gift className="size-4 text-muted-foreground" aria-hidden />
              {m.referralProgram}
            </CardTitle>
          </CardHeader>
          <CardContent>
            <p className="text-sm text-muted-foreground">{m.noReferralProgram}</p>
          </CardContent>
        </Card>
      </div>
    </section>
  );
}
