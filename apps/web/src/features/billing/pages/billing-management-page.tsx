import { useSearchParams } from 'react-router';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { BillingFrame, AgentLimitsTab, CreditsTab } from '../components/billing-frame';
import { MESSAGES } from '../wording';

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
      {(loaded) => (
        <Tabs value={tab} onValueChange={onTabChange} className="gap-4">
          <TabsList className="h-auto w-full flex-wrap sm:w-fit">
            <TabsTrigger value="credits">{m.tabCreditAllocation}</TabsTrigger>
            <TabsTrigger value="limits">{m.tabAgentLimits}</TabsTrigger>
          </TabsList>
          <CreditsTab {...loaded} />
          <AgentLimitsTab {...loaded} />
        </Tabs>
      )}
    </BillingFrame>
  );
}
