import { can, canHaveChildren, MESSAGES } from '@console/domain';
import { useParams } from 'react-router';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useOrganization } from '@/features/organizations/api/get-organization';
import { useOrgBase } from '@/features/organizations/use-org-base';
import { useAuth } from '@/lib/auth';
import { useBilling } from '../api/get-billing';
import { AgentLimitStatusCard } from '../components/AgentLimitStatusCard';
import { BillingHeader } from '../components/BillingHeader';
import { CapacityPanel } from '../components/CapacityPanel';
import { CreditBalanceCard } from '../components/CreditBalanceCard';
import { LimitRangeCard } from '../components/LimitRangeCard';
import { LoadError } from '../components/LoadError';
import { LoadingRows } from '../components/LoadingRows';

const m = MESSAGES.billingPages;

/**
 * {base}/:id/billing: tabs Agent Limits, Credits (with the allocate permission) and Child
 * Organizations (house, super agency, agency; the default there), spec 2 section 2.
 */
export default function BillingPage() {
  const { id = '' } = useParams();
  const base = useOrgBase();
  const { claims } = useAuth();
  const organization = useOrganization(id);
  const billing = useBilling(id);

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
    const withChildren = canHaveChildren(org.org_type);
    const showCredits = data.permissions.allocate_credits || can(claims?.role, 'organizations.allocate_credits');
    // From here credits go to this organization when it is an active direct child, or to a child of the own organization.
    const allocateHref =
      data.permissions.allocate_credits || (org.id === claims?.org_id && withChildren) ? `${base}/${org.id}/allocate-credits` : null;
    body = (
      <Tabs defaultValue={withChildren ? 'children' : 'limits'} className="gap-4">
        <TabsList className="h-auto w-full flex-wrap sm:w-fit">
          <TabsTrigger value="limits">{m.tabAgentLimits}</TabsTrigger>
          {showCredits && <TabsTrigger value="credits">{m.tabCredits}</TabsTrigger>}
          {withChildren && <TabsTrigger value="children">{m.tabChildOrganizations}</TabsTrigger>}
        </TabsList>
        <TabsContent value="limits" className="grid gap-4 lg:grid-cols-2">
          <AgentLimitStatusCard organizationId={org.id} orgType={org.org_type} billing={data} />
          <LimitRangeCard billing={data} />
        </TabsContent>
        {showCredits && (
          <TabsContent value="credits" className="grid gap-4 lg:grid-cols-2">
            <CreditBalanceCard balance={data.billing_settings.credit_balance} allocateHref={allocateHref} />
          </TabsContent>
        )}
        {withChildren && (
          <TabsContent value="children">
            <CapacityPanel organizationId={org.id} childHref={(childId) => `${base}/${childId}/billing`} title={m.tabChildOrganizations} />
          </TabsContent>
        )}
      </Tabs>
    );
  }

  return (
    <section className="space-y-6">
      <BillingHeader
        title={m.billingTitle}
        backTo={`${base}/${id}`}
        name={organization.data?.name}
        orgType={organization.data?.org_type}
      />
      {body}
    </section>
  );
}
