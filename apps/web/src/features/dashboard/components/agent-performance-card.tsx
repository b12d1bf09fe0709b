import { ACTIVATION_STATUSES, healthTone, type Dashboard } from '@console/domain';
import { Bot } from 'lucide-react';
import { Link } from 'react-router';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ActivationStatusBadge } from '@/components/agents/activation-status-badge';
import { HealthScore } from '@/components/agents/health-score';
import { ACTIVATION_STATUS_LABELS, AGENT_KIND_LABELS, lastActive } from '@/lib/agents';
import { PATHS } from '@/lib/paths';
import { cn } from '@/lib/utils';
import { formatCount } from './tone';
import { Metric } from './metric';
import { MESSAGES } from '../wording';

const m = MESSAGES.dashboardPages;

const HEALTH_TEXT = {
  green: 'text-emerald-700 dark:text-emerald-400',
  amber: 'text-amber-700 dark:text-amber-400',
  red: 'text-red-700 dark:text-red-400',
};

/** The live agents: how many of each reported status, their mean health, and each one worst health first. */
export function AgentPerformanceCard({ data }: { data: Dashboard }) {
  const { agents, organization } = data;
  const subtree = agents.subtree;
  const live = ACTIVATION_STATUSES.reduce((sum, status) => sum + agents.by_status[status], 0);
  return (
    <Card className="min-w-0 gap-4">
      <CardHeader>
        <CardTitle className="text-base">{m.agentPerformance}</CardTitle>
        <CardDescription>{m.agentPerformanceDescription(organization.name)}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {subtree && (
          <section aria-label={m.subtreeAgentsTitle(organization.name)} className="space-y-3 border-b pb-4">
            <p className="text-sm font-medium">{m.subtreeAgentsTitle(organization.name)}</p>
            <StatusFigures byStatus={subtree.by_status} averageHealth={subtree.average_health} testIdPrefix="subtree-agents" />
          </section>
        )}
        {live === 0 ? (
          <div className="flex items-start gap-3 text-sm text-muted-foreground">
            <Bot className="mt-0.5 size-4 shrink-0" aria-hidden />
            <p>
              {m.noActivations}{' '}
              <Link to={PATHS.resources} className="underline underline-offset-4">
                {MESSAGES.billingPages.resourcesTitle}
              </Link>
            </p>
          </div>
        ) : (
          <>
            <StatusFigures byStatus={agents.by_status} averageHealth={agents.average_health} testIdPrefix="agents" />
            <ul className="divide-y" aria-label={m.agentPerformance}>
              {agents.activations.map((activation) => (
                <li key={activation.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3 first:pt-0 last:pb-0">
                  <div className="min-w-0">
                    <p className="truncate font-medium">{activation.name}</p>
                    <p className="text-xs text-muted-foreground">
                      {AGENT_KIND_LABELS[activation.kind]} · {lastActive(activation.last_active_at) ?? MESSAGES.agentPages.never}
                    </p>
                  </div>
                  <div className="flex items-center gap-3 text-sm">
                    <HealthScore score={activation.health_score} />
                    <ActivationStatusBadge activation={activation} />
                  </div>
                </li>
              ))}
            </ul>
            {live > agents.activations.length && (
              <p className="text-xs text-muted-foreground">{m.lowestHealthShown(agents.activations.length, live)}</p>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** How many live agents are in each reported status, and their mean health. */
function StatusFigures({
  byStatus,
  averageHealth,
  testIdPrefix,
}: {
  byStatus: Dashboard['agents']['by_status'];
  averageHealth: number | null;
  testIdPrefix: string;
}) {
  const tone = healthTone(averageHealth === null ? null : Math.round(averageHealth));
  return (
    <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
      {ACTIVATION_STATUSES.map((status) => (
        <Metric
          key={status}
          label={ACTIVATION_STATUS_LABELS[status]}
          value={formatCount(byStatus[status])}
          testId={`${testIdPrefix}-${status}`}
        />
      ))}
      <Metric
        label={m.averageHealth}
        value={
          averageHealth === null ? (
            MESSAGES.agentPages.notReported
          ) : (
            <span className={cn(tone && HEALTH_TEXT[tone])}>{averageHealth.toLocaleString('en-US')}</span>
          )
        }
        testId={`${testIdPrefix}-health`}
      />
    </dl>
  );
}
