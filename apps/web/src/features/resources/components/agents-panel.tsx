import { mayManageAgentsOf, type Activation, type OrganizationDetail } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { Bot } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { agentQueries, useDeactivateAgent } from '@/api/agents';
import { ActivationStatusBadge } from '@/components/agents/activation-status-badge';
import { HealthScore } from '@/components/agents/health-score';
import { CapUsageText, WindowCapsText } from '@/components/billing/cap-usage';
import { USAGE_LEVELS, usageLevel, usagePercent } from '@/components/billing/usage';
import { ConfirmButton } from '@/components/confirm-button';
import { ResponsiveDataTable } from '@/components/data-table';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { AGENT_KIND_LABELS, formatUnitsOf, lastActive } from '@/lib/agents';
import { formatCredits } from '@/lib/credit-format';
import { formatDateTime } from '@/lib/dates';
import { useViewer } from '@/lib/use-viewer';
import { ActivateAgentDialog } from './activate-agent-dialog';
import { ActivationCapDialog } from './activation-cap-dialog';
import { MESSAGES } from '../wording';
import { announce } from '@/lib/announce';

const a = MESSAGES.agentPages;
const b = MESSAGES.billingPages;

function LastActive({ at }: { at: string | null }) {
  const text = lastActive(at);
  if (!at || !text) return <span className="text-muted-foreground">{a.never}</span>;
  return (
    <time dateTime={at} title={formatDateTime(at)}>
      {text}
    </time>
  );
}

/** Deactivate, after a confirmation that says what stops. */
function DeactivateButton({ organizationId, activation }: { organizationId: string; activation: Activation }) {
  const deactivate = useDeactivateAgent(organizationId);
  const name = activation.agent_type.name;
  return (
    <ConfirmButton
      label={a.deactivate}
      subject={name}
      pending={deactivate.isPending}
      title={a.deactivateTitle(name)}
      description={a.deactivateBody}
      // The refetch that follows removes this row, and with it this button, often before the mutation settles.
      onConfirm={() => announce(deactivate.mutateAsync(activation.id), a.deactivated(name), a.deactivateFailed)}
    />
  );
}

/** Set cap and Deactivate. */
function AgentActions({ organizationId, activation }: { organizationId: string; activation: Activation }) {
  return (
    <div className="flex flex-wrap justify-end gap-2">
      <ActivationCapDialog organizationId={organizationId} activation={activation} />
      <DeactivateButton organizationId={organizationId} activation={activation} />
    </div>
  );
}

/** One agent as a card, for narrow screens where the table's columns do not fit. */
function AgentCard({ organizationId, activation, mayManage }: { organizationId: string; activation: Activation; mayManage: boolean }) {
  const { agent_type: type, usage_30d: usage } = activation;
  return (
    <li className="space-y-3 rounded-md border p-4">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-medium break-words">{type.name}</p>
          <p className="text-xs text-muted-foreground">
            {type.code} · {AGENT_KIND_LABELS[type.kind]}
          </p>
        </div>
        <ActivationStatusBadge activation={activation} />
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
        <dt className="text-muted-foreground">Last active</dt>
        <dd>
          <LastActive at={activation.last_active_at} />
        </dd>
        <dt className="text-muted-foreground">Health</dt>
        <dd>
          <HealthScore score={activation.health_score} />
        </dd>
        <dt className="text-muted-foreground">Usage, 30 days</dt>
        <dd className="tabular-nums">
          {usage.events.toLocaleString('en-US')} events · {formatUnitsOf(usage.units, type.unit)}
        </dd>
        <dt className="text-muted-foreground">Credits, 30 days</dt>
        <dd className="tabular-nums">{formatCredits(usage.credits)}</dd>
        <dt className="text-muted-foreground">Monthly cap</dt>
        <dd>
          <CapUsageText usage={activation.monthly_cap} />
          <WindowCapsText daily={activation.daily_cap} weekly={activation.weekly_cap} />
        </dd>
      </dl>
      {mayManage && <AgentActions organizationId={organizationId} activation={activation} />}
    </li>
  );
}

/**
 * The Agents tab of Resources: the organization's live activations with what their runtimes
 * last reported and their usage of the last 30 days. Activate and Deactivate are offered
 * exactly to those the server lets manage this organization's agents (its admins and its
 * parent's); at the limit, Activate is disabled and the Critical advice says why.
 */
export function AgentsPanel({ organization }: { organization: OrganizationDetail }) {
  const viewer = useViewer();
  const agents = useQuery(agentQueries.activations(organization.id));
  const mayManage = !!viewer && mayManageAgentsOf(viewer, organization);

  if (agents.isPending) return <LoadingRows rows={3} />;
  if (agents.isError) {
    return (
      <QueryError error={agents.error} title={a.loadAgentsFailed} notFound={MESSAGES.organizations.notFound} onRetry={agents.refetch} />
    );
  }

  const { activations, active_agent_count: active, activated_agent_limit: limit } = agents.data;
  const atLimit = active >= limit;
  const level = USAGE_LEVELS[usageLevel(usagePercent(active, limit))];

  return (
    <Card className="gap-4">
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid min-w-0 gap-1.5">
          <CardTitle className="flex flex-wrap items-center gap-2 text-base">
            {a.agentsTitle}
            <span className="text-sm font-normal tabular-nums text-muted-foreground" data-testid="agents-used">
              {b.agentsUsed(active, limit)}
            </span>
            <Badge variant={level.variant}>{level.badge}</Badge>
          </CardTitle>
          <CardDescription>{a.agentsDescription(organization.name)}</CardDescription>
        </div>
        {mayManage && (
          <ActivateAgentDialog
            organizationId={organization.id}
            activatedTypeIds={activations.map((activation) => activation.agent_type.id)}
            active={active}
            limit={limit}
            disabled={atLimit}
          />
        )}
      </CardHeader>
      <CardContent className="space-y-4">
        {mayManage && atLimit && (
          <p className="text-sm text-destructive" role="note">
            <span>{MESSAGES.agents.limitReached(active, limit)}</span> <span>{b.adviceCritical}</span>
          </p>
        )}
        {activations.length === 0 ? (
          <div className="flex items-start gap-3 rounded-md border border-dashed p-6 text-sm text-muted-foreground">
            <Bot className="mt-0.5 size-4 shrink-0" aria-hidden />
            <p>{a.noActivations}</p>
          </div>
        ) : (
          <ResponsiveDataTable
            label={a.agentsTitle}
            columns={[
              {
                head: 'Agent',
                cell: (activation) => (
                  <>
                    <div className="font-medium">{activation.agent_type.name}</div>
                    <div className="text-xs text-muted-foreground">{activation.agent_type.code}</div>
                  </>
                ),
              },
              { head: 'Status', cell: (activation) => <ActivationStatusBadge activation={activation} /> },
              { head: 'Kind', cell: (activation) => AGENT_KIND_LABELS[activation.agent_type.kind] },
              { head: 'Last active', cell: (activation) => <LastActive at={activation.last_active_at} /> },
              { head: 'Health', cell: (activation) => <HealthScore score={activation.health_score} /> },
              {
                head: 'Usage, 30 days',
                headClassName: 'text-right',
                className: 'text-right tabular-nums',
                cell: (activation) => (
                  <>
                    <div>{activation.usage_30d.events.toLocaleString('en-US')} events</div>
                    <div className="text-xs text-muted-foreground">
                      {formatUnitsOf(activation.usage_30d.units, activation.agent_type.unit)}
                    </div>
                  </>
                ),
              },
              {
                head: 'Credits, 30 days',
                headClassName: 'text-right',
                className: 'text-right tabular-nums',
                cell: (activation) => formatCredits(activation.usage_30d.credits),
              },
              {
                head: 'Monthly cap',
                className: 'text-xs',
                cell: (activation) => (
                  <>
                    <CapUsageText usage={activation.monthly_cap} />
                    <WindowCapsText daily={activation.daily_cap} weekly={activation.weekly_cap} />
                  </>
                ),
              },
              mayManage && {
                head: 'Actions',
                headClassName: 'sr-only',
                className: 'text-right',
                cell: (activation) => <AgentActions organizationId={organization.id} activation={activation} />,
              },
            ]}
            rows={activations}
            card={(activation) => <AgentCard organizationId={organization.id} activation={activation} mayManage={mayManage} />}
          />
        )}
      </CardContent>
    </Card>
  );
}
