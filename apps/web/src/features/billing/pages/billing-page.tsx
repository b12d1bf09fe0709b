import { canHaveChildren, mayAllocateCredits, mayViewBilling } from '@console/domain';
import { AlertLinesCard } from '@/components/billing/alert-lines-card';
import { CapacityPanel } from '@/components/billing/capacity-panel';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useViewer } from '@/lib/use-viewer';
import { BillingFrame, AgentLimitsTab, CreditsTab } from '../components/billing-frame';
import { SpendControlsCard } from '../components/spend-controls-card';
import { CreditGrantsCard } from '../components/credit-grants-card';
import { MESSAGES } from '../wording';

const m = MESSAGES.billingPages;

/**
 * {base}/:id/billing: tabs Agent Limits, Credits (with the allocate permission) and Child
 * Organizations (house, super agency, agency; the default there), below the spend controls and
 * alert lines cards, then the credit grants (to whoever may view billing).
 */
export default function BillingPage() {
  const viewer = useViewer();
  return (
    <BillingFrame title={m.billingTitle}>
      {(loaded) => {
        const { org, base } = loaded;
        const withChildren = canHaveChildren(org.org_type);
        // Whoever may allocate credits sees the balance they would move.
        const showCredits = !!viewer && mayAllocateCredits(viewer);
        return (
          <>
            <SpendControlsCard organization={org} />
            <AlertLinesCard organizationId={org.id} />
            <Tabs defaultValue={withChildren ? 'children' : 'limits'} className="gap-4">
              <TabsList className="h-auto w-full flex-wrap sm:w-fit">
                <TabsTrigger value="limits">{m.tabAgentLimits}</TabsTrigger>
                {showCredits && <TabsTrigger value="credits">{m.tabCredits}</TabsTrigger>}
                {withChildren && <TabsTrigger value="children">{m.tabChildOrganizations}</TabsTrigger>}
              </TabsList>
              <AgentLimitsTab {...loaded} />
              {showCredits && <CreditsTab {...loaded} />}
              {withChildren && (
                <TabsContent value="children">
                  <CapacityPanel
                    organizationId={org.id}
                    childHref={(childId) => `${base}/${childId}/billing`}
                    title={m.tabChildOrganizations}
                  />
                </TabsContent>
              )}
            </Tabs>
            {!!viewer && mayViewBilling(viewer) && <CreditGrantsCard organizationId={org.id} />}
          </>
        );
      }}
    </BillingFrame>
  );
}
