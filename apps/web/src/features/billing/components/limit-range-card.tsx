import { type BillingResponse } from '@console/domain';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { MESSAGES } from '../wording';

const m = MESSAGES.billingPages;

/** What bounds this organization's limit: the parent's capacity left above, the children's total below. */
export function LimitRangeCard({ billing }: { billing: BillingResponse }) {
  const max = billing.max_activated_agent_limit;
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle className="text-base">{MESSAGES.billingPages.tabAgentLimits}</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-3 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-muted-foreground">{m.activatedAgentLimit}</dt>
            <dd className="font-medium tabular-nums">{billing.billing_settings.activated_agent_limit}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">{m.maxLimit}</dt>
            <dd className="font-medium tabular-nums">{max === null ? m.noParentCap : Math.max(max, 0)}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">{m.childrenLimitTotal}</dt>
            <dd className="font-medium tabular-nums">{billing.children_limit_total}</dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}
