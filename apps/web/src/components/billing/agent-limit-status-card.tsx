import { maySetAgentLimit, type BillingResponse, type OrganizationFacts, type OrgType } from '@console/domain';
import { Info } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { useViewer } from '@/lib/use-viewer';
import { AdjustLimitDialog } from './adjust-limit-dialog';
import { USAGE_LEVELS, usageLevel, usagePercent } from './usage';
import { MESSAGES } from '@/lib/wording';

const m = MESSAGES.billingPages;

interface AgentLimitStatusCardProps {
  /** The parent may be left out for the viewer's own organization, where it decides nothing. */
  organization: Pick<OrganizationFacts, 'id'> & Partial<Pick<OrganizationFacts, 'parent_org_id'>> & { org_type: OrgType };
  billing: BillingResponse;
}

/**
 * Agent Limit Status: used / limit, a bar, a badge and advice. Adjust Limit is offered when
 * the server's answer allows it and the viewer may set this organization's limit (its
 * parent's admins; a house's own admins), so a tenant never adjusts its own limit; without
 * it, one line says who sets the limit.
 */
export function AgentLimitStatusCard({ organization, billing }: AgentLimitStatusCardProps) {
  const viewer = useViewer();
  const orgType = organization.org_type;
  const limit = billing.billing_settings.activated_agent_limit;
  const active = billing.active_agent_count;
  const percent = usagePercent(active, limit);
  const level = USAGE_LEVELS[usageLevel(percent)];
  const mayAdjust =
    billing.permissions.manage_activated_agent_limit &&
    !!viewer &&
    maySetAgentLimit(viewer, { ...organization, parent_org_id: organization.parent_org_id ?? null });

  return (
    <Card className="gap-4">
      <CardHeader className="flex flex-row items-center justify-between gap-2">
        <CardTitle className="flex items-center gap-1 text-base">
          {m.agentLimitStatus}
          <Tooltip>
            <TooltipTrigger asChild>
              <Button variant="ghost" size="icon" className="size-7" aria-label={m.aboutAgentLimits}>
                <Info aria-hidden />
              </Button>
            </TooltipTrigger>
            <TooltipContent>
              <p className="font-medium">{m.aboutAgentLimits}</p>
              <p>{orgType === 'tenant' ? m.aboutTenantLimit : m.aboutAgentLimitsBody}</p>
            </TooltipContent>
          </Tooltip>
        </CardTitle>
        <Badge variant={level.variant}>{level.badge}</Badge>
      </CardHeader>
      <CardContent className="space-y-3">
        <p className="text-2xl font-semibold tabular-nums" data-testid="agent-usage">
          {m.agentsUsed(active, limit)}
        </p>
        <Progress value={percent} aria-label={m.usagePercent(Math.floor(percent))} indicatorClassName={level.bar} />
        <p className="text-sm text-muted-foreground">{level.advice}</p>
        {mayAdjust ? (
          <AdjustLimitDialog
            organizationId={organization.id}
            currentLimit={limit}
            facts={{
              childrenTotal: billing.children_limit_total,
              active: billing.active_agent_count,
              max: billing.max_activated_agent_limit,
            }}
          />
        ) : (
          <p className="text-sm text-muted-foreground" data-testid="limit-set-by">
            {m.limitSetBy(orgType)}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
