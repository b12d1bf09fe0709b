import { can, canHaveChildren, MESSAGES } from '@console/domain';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useAuth } from '@/lib/auth';
import { AgentLimitCards, BillingFrame } from '../components/BillingFrame';
import { CapacityPanel } from '../components/CapacityPanel';
import { CreditBalanceCard } from '../components/CreditBalanceCard';

const m = MESSAGES.billingPages;

/**
 * {base}/:id/billing: tabs Agent Limits, Credits (with the allocate permission) and Child
 * Organizations (house, super agency, agency; the default there), spec 2 section 2.
 */
export default function BillingPage() {
  const { claims } = useAuth();
  return (
    <BillingFrame title={m.billingTitle}>
      {({ org, billing, allocateHref, base }) => {
        const withChildren = canHaveChildren(org.org_type);
        const showCredits = billing.permissions.allocate_credits || can(claims?.role, 'organizations.allocate_credits');
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
                <CreditBalanceCard balance={billing.billing_settings.credit_balance} allocateHref={allocateHref} />
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
