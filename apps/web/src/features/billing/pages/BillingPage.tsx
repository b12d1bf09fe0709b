import { can, canHaveChildren } from '@console/domain';
import { CapacityPanel } from '@/components/billing/capacity-panel';
import { CreditBalanceCard } from '@/components/billing/credit-balance-card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useViewer } from '@/lib/use-viewer';
import { AgentLimitCards, BillingFrame } from '../components/BillingFrame';
import { MESSAGES } from '@/lib/wording';

const m = MESSAGES.billingPages;

/**
 * {base}/:id/billing: tabs Agent Limits, Credits (with the allocate permission) and Child
 * Organizations (house, super agency, agency; the default there).
 */
export default function BillingPage() {
  const viewer = useViewer();
  return (
    <BillingFrame title={m.billingTitle}>
      {({ org, billing, allocateHref, allocateHint, base }) => {
        const withChildren = canHaveChildren(org.org_type);
        // Whoever may allocate credits sees the balance they would move.
        const showCredits = can(viewer?.role, 'organizations.allocate_credits');
        return (
          <Tabs defaultValue={withChildren ? 'children' : 'limits'} className="gap-4">
            <TabsList className="h-auto w-full flex-wrap sm:w-fit">
              <TabsTrigger value="limits">{m.tabAgentLimits}</TabsTrigger>
              {showCredits && <TabsTrigger value="credits">{m.tabCredits}</TabsTrigger>}
              {withChildren && <TabsTrigger value="children">{m.tabChildOrganizations}</TabsTrigger>}
            </TabsList>
            <TabsContent value="limits" className="grid gap-4 lg:grid-cols-2">
              <AgentLimitCards org={org} billing={billing} />
            </TabsContent>
            {showCredits && (
              <TabsContent value="credits" className="grid gap-4 lg:grid-cols-2">
                <CreditBalanceCard
                  organizationId={org.id}
                  balance={billing.billing_settings.credit_balance}
                  threshold={billing.billing_settings.low_balance_threshold}
                  allocateHref={allocateHref}
                  allocateHint={allocateHint}
                />
              </TabsContent>
            )}
            {withChildren && (
              <TabsContent value="children">
                <CapacityPanel organizationId={org.id} childHref={(childId) => `${base}/${childId}/billing`} title={m.tabChildOrganizations} />
              </TabsContent>
            )}
          </Tabs>
        );
      }}
    </BillingFrame>
  );
}
