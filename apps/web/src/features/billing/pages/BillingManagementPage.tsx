import { canHaveChildren, MESSAGES } from '@console/domain';
import { useParams, useSearchParams } from 'react-router';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useOrganization } from '@/features/organizations/api/get-organization';
import { useOrgBase } from '@/features/organizations/use-org-base';
import { useAuth } from '@/lib/auth';
import { useBilling } from '../api/get-billing';
import { AgentLimitStatusCard } from '../components/AgentLimitStatusCard';
import { BillingHeader } from '../components/BillingHeader';
import { CreditBalanceCard } from '../components/CreditBalanceCard';
import { LimitRangeCard } from '../components/LimitRangeCard';
import { LoadError } from '../components/LoadError';
import { LoadingRows } from '../components/LoadingRows';

const m = MESSAGES.billingPages;
const TABS = ['credits', 'limits'] as const;
type Tab = (typeof TABS)[number];

function tabOf(value: string | null): Tab {
  return TABS.includes(value as Tab) ? (value as Tab) : 'credits';
}

/** {base}/:id/billing-management: Credit Allocation and Agent Limits, chosen by the `tab` query (credits by default). */
export default function BillingManagementPage() {
  const { id = '' } = useParams();
  const base = useOrgBase();
  const { claims } = useAuth();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = tabOf(searchParams.get('tab'));
  const organization = useOrganization(id);
  const billing = useBilling(id);

  function onTabChange(value: string) {
    const next = new URLSearchParams(searchParams);
    next.set('tab', tabOf(value));
    setSearchParams(next, { replace: true });
  }

  let body: React.ReactNode;
  if (organization.isError) {
    body = <LoadError error={organization.error} title={MESSAGES.organizations.failedToLoadDetails} />;
  } else if (billing.isError) {
    body = <LoadError error={billing.error} title={MESSAGES.billing.loadFailed} />;
  } else if (organization.isPending || billing.isPending) {
    body = <LoadingRows rows={3} className="h-24" />;
  } else {
    const org = organization.data;
    const data = billing.data;
    const allocateHref =
      data.permissions.allocate_credits || (org.id === claims?.org_id && canHaveChildren(org.org_type))
        ? `${base}/${org.id}/allocate-credits`
        : null;
    body = (
      <Tabs value={tab} onValueChange={onTabChange} className="gap-4">
        <TabsList className="h-auto w-full flex-wrap sm:w-fit">
          <TabsTrigger value="credits">{m.tabCreditAllocation}</TabsTrigger>
          <TabsTrigger value="limits">{m.tabAgentLimits}</TabsTrigger>
        </TabsList>
        <TabsContent value="credits" className="grid gap-4 lg:grid-cols-2">
          <CreditBalanceCard balance={data.billing_settings.credit_balance} allocateHref={allocateHref} />
        </TabsContent>
        <TabsContent value="limits" className="grid gap-4 lg:grid-cols-2">
          <AgentLimitStatusCard organizationId={org.id} orgType={org.org_type} billing={data} />
          <LimitRangeCard billing={data} />
        </TabsContent>
      </Tabs>
    );
  }

  return (
    <section className="space-y-6">
      <BillingHeader
        title={m.billingManagementTitle}
        backTo={`${base}/${id}`}
        name={organization.data?.name}
        orgType={organization.data?.org_type}
      />
      {body}
    </section>
  );
}
