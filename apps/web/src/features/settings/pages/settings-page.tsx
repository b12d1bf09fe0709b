import {
  isSeller,
  mayManageApiKeysOf,
  mayViewApiKeysOf,
  mayManageBilling,
  mayManageGlobalSettings,
  mayViewBilling,
  mayViewIdentity,
  mayViewSellerBooks,
  mayViewWebhooksOf,
  type GlobalSettings,
  type OrgType,
} from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { CreditCard, ExternalLink, Fingerprint, LifeBuoy, Gift, ReceiptText, ShieldCheck, UserRound, Webhook } from 'lucide-react';
import type { ComponentType, ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { IconCardTitle } from '@/components/icon-card-title';
import { Skeleton } from '@/components/ui/skeleton';
import { billingQueries } from '@/api/billing';
import { settingsQueries } from '@/api/settings';
import { userQueries } from '@/api/users';
import { AgentLimitStatusCard } from '@/components/billing/agent-limit-status-card';
import { AlertLinesCard } from '@/components/billing/alert-lines-card';
import { CreditBalanceCard } from '@/components/billing/credit-balance-card';
import { RecentTransactionsCard } from '@/components/credits/recent-transactions-card';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { useAuth } from '@/lib/auth';
import { fullName } from '@/lib/format';
import { PATHS } from '@/lib/paths';
import { useViewer } from '@/lib/use-viewer';
import { AppearanceCard } from '../components/appearance-card';
import { GlobalSettingsCard } from '../components/global-settings-card';
import { MESSAGES } from '../wording';

const m = MESSAGES.billingPages;
const g = MESSAGES.globalSettings;

/** An address outside the console, opened in a new tab. */
function ExternalButton({ href, children }: { href: string; children: string }) {
  return (
    <Button asChild size="sm" variant="outline">
      <a href={href} target="_blank" rel="noopener noreferrer">
        {children}
        <ExternalLink aria-hidden />
      </a>
    </Button>
  );
}

/**
 * What the global settings hold for a row of the page: the links, or an honest line when
 * none is set (pointing house admins at the form below), or the load failure.
 */
function SettingsLinks({
  settings,
  admin,
  render,
  none,
  noneAdmin,
}: {
  settings: ReturnType<typeof useGlobalSettings>;
  admin: boolean;
  /** The links, or nothing (null, false) when none is set. */
  render(settings: GlobalSettings): ReactNode;
  none: string;
  noneAdmin: string;
}) {
  if (settings.isPending) return <Skeleton className="h-8 w-40" />;
  if (settings.isError) return <QueryError error={settings.error} title={g.loadFailed} onRetry={settings.refetch} />;
  return render(settings.data) || <p className="text-sm text-muted-foreground">{admin ? noneAdmin : none}</p>;
}

const useGlobalSettings = () => useQuery(settingsQueries.global());

function Header() {
  return (
    <header className="space-y-1">
      <h1 className="text-2xl font-semibold tracking-tight">{m.settingsTitle}</h1>
      <p className="text-muted-foreground">{m.settingsSubtitle}</p>
    </header>
  );
}

/** The two metric cards: the credit balance and Agent Limit Status, from the organization's billing settings. */
function BillingMetrics({ organizationId, orgType }: { organizationId: string; orgType: OrgType }) {
  const billing = useQuery({ ...billingQueries.settings(organizationId), enabled: !!organizationId });
  if (billing.isPending) {
    return (
      <div role="status" className="grid gap-4 md:grid-cols-2">
        <span className="sr-only">Loading</span>
        <Skeleton className="h-40 w-full" />
        <Skeleton className="h-40 w-full" />
      </div>
    );
  }
  if (billing.isError) {
    return (
      <QueryError error={billing.error} title={m.settingsLoadFailed} notFound={MESSAGES.organizations.notFound} onRetry={billing.refetch} />
    );
  }
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <CreditBalanceCard
        organizationId={organizationId}
        balance={billing.data.billing_settings.credit_balance}
        threshold={billing.data.billing_settings.low_balance_threshold}
        freshness={{ updatedAt: billing.dataUpdatedAt, onRefresh: () => void billing.refetch(), refreshing: billing.isFetching }}
      />
      <AgentLimitStatusCard organization={{ id: organizationId, org_type: orgType }} billing={billing.data} />
    </div>
  );
}

/** The organization's API keys card, from the api-keys feature: the app passes it in, since features never import each other. */
export type ApiKeysCardSlot = ComponentType<{
  organizationId: string;
  organizationName: string;
  organizationType: OrgType;
  mayManage: boolean;
}>;

/** /settings: account and billing of the user's organization, recent credits, API keys, the way to its webhooks, profile and support. */
export default function SettingsPage({ ApiKeysCard }: { ApiKeysCard: ApiKeysCardSlot }) {
  const me = useQuery(userQueries.me());
  const { claims } = useAuth();
  const viewer = useViewer();
  const settings = useGlobalSettings();
  const settingsAdmin = !!viewer && mayManageGlobalSettings(viewer);

  if (me.isPending) {
    return (
      <section className="space-y-6">
        <Header />
        <LoadingRows rows={['h-28 w-full', 'h-40 w-full', 'h-40 w-full']} />
      </section>
    );
  }
  if (me.isError) {
    return (
      <section className="space-y-6">
        <Header />
        <QueryError error={me.error} title={m.settingsLoadFailed} onRetry={me.refetch} />
      </section>
    );
  }

  const user = me.data;
  const organization = user.organization;
  const billingHref = `${claims?.isHouseRole ? PATHS.organizations : PATHS.orgs}/${organization.id}/billing`;
  const name = fullName(user);

  return (
    <section className="space-y-6">
      <Header />

      <Card className="gap-4">
        <CardHeader>
          <IconCardTitle icon={CreditCard}>{m.accountBilling}</IconCardTitle>
          <CardDescription>
            {organization.name} · {m.accountBillingBody}
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-wrap gap-2">
          {!!viewer && mayManageBilling(viewer) && (
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

      {!!viewer && mayViewBilling(viewer) && <AlertLinesCard organizationId={organization.id} />}

      <RecentTransactionsCard organizationId={organization.id} />

      {/* The organization's own admins; while it is frozen they still see the keys, without changing them. */}
      {!!viewer && mayViewApiKeysOf(viewer, organization) && (
        <ApiKeysCard
          organizationId={organization.id}
          organizationName={organization.name}
          organizationType={organization.org_type}
          mayManage={mayManageApiKeysOf(viewer, organization)}
        />
      )}

      {/* Settings > Webhooks: the organization's admins, as the page's route lets in. */}
      {!!viewer && mayViewWebhooksOf(viewer, organization) && (
        <Card className="gap-4">
          <CardHeader>
            <IconCardTitle icon={Webhook}>{MESSAGES.webhookPages.title}</IconCardTitle>
            <CardDescription>{MESSAGES.webhookPages.settingsBody}</CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild size="sm" variant="outline">
              <Link to={PATHS.webhooks}>{MESSAGES.webhookPages.settingsLink}</Link>
            </Button>
          </CardContent>
        </Card>
      )}

      {/* Settings > Identity: single sign-on and provisioning, for the organization's own admins. */}
      {!!viewer && mayViewIdentity(viewer, organization) && (
        <Card className="gap-4">
          <CardHeader>
            <IconCardTitle icon={Fingerprint}>{MESSAGES.identityPages.title}</IconCardTitle>
            <CardDescription>{MESSAGES.identityPages.settingsBody}</CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild size="sm" variant="outline">
              <Link to={PATHS.identity}>{MESSAGES.identityPages.settingsLink}</Link>
            </Button>
          </CardContent>
        </Card>
      )}

      {/* Settings > Billing details: what a seller prints on its invoices, read by its own people. */}
      {!!viewer && isSeller(organization) && mayViewSellerBooks(viewer, organization) && (
        <Card className="gap-4">
          <CardHeader>
            <IconCardTitle icon={ReceiptText}>{MESSAGES.invoicePages.details.title}</IconCardTitle>
            <CardDescription>{MESSAGES.invoicePages.details.settingsBody}</CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild size="sm" variant="outline">
              <Link to={PATHS.billingDetails}>{MESSAGES.invoicePages.details.settingsLink}</Link>
            </Button>
          </CardContent>
        </Card>
      )}

      <Card className="gap-0 py-0">
        <div className="flex flex-wrap items-center justify-between gap-3 border-b px-6 py-4">
          <div className="flex min-w-0 items-center gap-3">
            <UserRound className="size-4 shrink-0 text-muted-foreground" aria-hidden />
            <div className="min-w-0">
              <h2 className="font-medium">{m.yourProfile}</h2>
              <p className="truncate text-sm text-muted-foreground">{name ? `${name} · ${user.email}` : user.email}</p>
            </div>
          </div>
          <Button asChild size="sm" variant="outline">
            <Link to={`${PATHS.users}/${user.id}/edit`}>{m.editProfile}</Link>
          </Button>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-3 border-b px-6 py-4">
          <div className="flex min-w-0 items-center gap-3">
            <ShieldCheck className="size-4 shrink-0 text-muted-foreground" aria-hidden />
            <div className="min-w-0">
              <h2 className="font-medium">{MESSAGES.security.settingsRow}</h2>
              <p className="text-sm text-muted-foreground">{MESSAGES.security.settingsRowBody}</p>
            </div>
          </div>
          <Button asChild size="sm" variant="outline">
            <Link to={PATHS.security}>{MESSAGES.security.settingsLink}</Link>
          </Button>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-3 px-6 py-4">
          <div className="flex min-w-0 items-center gap-3">
            <CreditCard className="size-4 shrink-0 text-muted-foreground" aria-hidden />
            <h2 className="font-medium">{m.billingPayments}</h2>
          </div>
          <SettingsLinks
            settings={settings}
            admin={settingsAdmin}
            none={g.noBillingPortal}
            noneAdmin={g.noBillingPortalAdmin}
            render={({ billing_portal_url }) =>
              billing_portal_url && <ExternalButton href={billing_portal_url}>{g.billingPortal}</ExternalButton>
            }
          />
        </div>
      </Card>

      <AppearanceCard />

      {settingsAdmin && settings.data && <GlobalSettingsCard settings={settings.data} />}

      <div className="grid gap-4 md:grid-cols-2">
        <Card className="gap-3">
          <CardHeader>
            <IconCardTitle icon={LifeBuoy}>{m.communitySupport}</IconCardTitle>
          </CardHeader>
          <CardContent className="space-y-3 text-sm">
            <SettingsLinks
              settings={settings}
              admin={settingsAdmin}
              none={g.noCommunity}
              noneAdmin={g.noCommunityAdmin}
              render={({ community_channels }) =>
                community_channels.length > 0 && (
                  <div className="space-y-2">
                    <p className="text-muted-foreground">{g.communityBody}</p>
                    <div className="flex flex-wrap gap-2">
                      {community_channels.map((channel) => (
                        <ExternalButton key={channel.url} href={channel.url}>
                          {channel.name}
                        </ExternalButton>
                      ))}
                    </div>
                  </div>
                )
              }
            />
            <div>
              <p className="text-muted-foreground">{m.supportBody}</p>
              <p className="font-medium">{m.supportContact}</p>
            </div>
          </CardContent>
        </Card>
        <Card className="gap-3">
          <CardHeader>
            <IconCardTitle icon={Gift}>{m.referralProgram}</IconCardTitle>
          </CardHeader>
          <CardContent>
            <p className="text-sm text-muted-foreground">{m.noReferralProgram}</p>
          </CardContent>
        </Card>
      </div>
    </section>
  );
}
