import { useSearchParams } from 'react-router';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { AgentLimitCards, BillingFrame } from '../components/BillingFrame';
import { CreditBalanceCard } from '@/components/billing/credit-balance-card';
import { MESSAGES } from '@/lib/wording';

const m = MESSAGES.billingPages;
const TABS = ['credits', 'limits'] as const;
type Tab = (typeof TABS)[number];

function tabOf(value: string | null): Tab {
  return TABS.includes(value as Tab) ? (value as Tab) : 'credits';
}

/** {base}/:id/billing-management: Credit Allocation and Agent Limits, chosen by the `tab` query (credits by default). */
export default function BillingManagementPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = tabOf(searchParams.get('tab'));

  function onTabChange(value: string) {
    const next = new URLSearchParams(searchParams);
    next.set('tab', tabOf(value));
    setSearchParams(next, { replace: true });
  }

  return (
    <BillingFrame title={m.billingManagementTitle}>
      {({ org, billing, allocateHref, allocateHint }) => (
        <Tabs value={tab} onValueChange={onTabChange} className="gap-4">
          <TabsList className="h-auto w-full flex-wrap sm:w-fit">
            <TabsTrigger value="credits">{m.tabCreditAllocation}</TabsTrigger>
            <TabsTrigger value="limits">{m.tabAgentLimits}</TabsTrigger>
          </TabsList>
          <TabsContent value="credits" className="grid gap-4 lg:grid-cols-2">
            <CreditBalanceCard
              organizationId={org.id}
              balance={billing.billing_settings.credit_balance}
              threshold={billing.billing_settings.low_balance_threshold}
              allocateHref={allocateHref}
              allocateHint={allocateHint}
            />
          </TabsContent>
          <TabsContent value="limits" className="grid gap-4 lg:grid-cols-2">
            <AgentLimitCards org={org} billing={billing} />
          </TabsContent>
        </Tabs>
      )}
    </BillingFrame>
  );
}
