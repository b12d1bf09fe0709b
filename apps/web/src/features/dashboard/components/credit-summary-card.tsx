import { type Dashboard } from '@console/domain';
import { Coins } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { BalanceParts } from '@/components/billing/balance-parts';
import { IconCardTitle } from '@/components/icon-card-title';
import { LowBalanceAlert } from '@/components/credits/low-balance-alert';
import { formatCredits } from '@/lib/credit-format';
import { ScopeChoice, type Scope } from './scope-choice';
import { formatCount } from './tone';
import { Metric } from './metric';
import { MESSAGES } from '../wording';

const m = MESSAGES.dashboardPages;

/**
 * The credit balance card: balance, monthly usage, available agents (the limit less the active
 * ones) and projected depletion, the balance's parts when some credits carry terms (open
 * credits, the soonest expiry), with the low-balance warning below the organization's own alert threshold; `freshness` says
 * how old the figures are. A parent's usage is its whole subtree's first (its agents run
 * below it), its own a click away, as on the Agents tab.
 */
export function CreditSummaryCard({ data, freshness }: { data: Dashboard; freshness?: ReactNode }) {
  const { credits, resources } = data;
  const depletion = credits.depletion_months;
  // What is free: the limit less the active agents, never below 0 (a lowered limit may sit under them).
  const freeAgents = Math.max(resources.activated_agent_limit - resources.active_agents, 0);
  const parent = data.organization.org_type !== 'tenant';
  const [scope, setScope] = useState<Scope>(parent ? 'subtree' : 'own');
  const subtree = parent && scope === 'subtree';
  const usage = subtree ? credits.subtree_usage.current_period : credits.usage.current_period;
  return (
    <Card className="gap-4">
      <CardHeader className="flex flex-wrap items-center justify-between gap-2">
        <IconCardTitle icon={Coins}>{m.creditBalance}</IconCardTitle>
        <div className="flex max-w-full min-w-0 flex-wrap items-center gap-2">
          {parent && <ScopeChoice label={m.usageScope} organizationName={data.organization.name} value={scope} onChange={setScope} />}
          {freshness}
        </div>
      </CardHeader>
      <CardContent className="space-y-4">
        <LowBalanceAlert balance={credits.balance} threshold={credits.low_balance_threshold} />
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <Metric label={m.creditBalance} value={formatCredits(credits.balance)} testId="summary-balance" />
          <Metric
            label={m.monthlyUsage}
            value={formatCredits(usage)}
            hint={(subtree ? m.usageHintSubtree : m.usageHintOwn)(credits.usage.period_days)}
            testId="summary-monthly-usage"
          />
          <Metric
            label={m.availableAgents}
            value={formatCount(freeAgents)}
            hint={m.availableAgentsHint(formatCount(resources.active_agents), formatCount(resources.activated_agent_limit))}
            testId="summary-agents"
          />
          <Metric
            label={m.projectedDepletion}
            value={depletion === null ? (parent ? m.noOwnUsage : m.noUsageYet) : m.depletionMonths(depletion)}
            hint={depletion === null ? undefined : 'Balance ÷ the forecast of the next month'}
            testId="summary-depletion"
          />
        </dl>
        <BalanceParts organizationId={data.organization.id} />
      </CardContent>
    </Card>
  );
}
