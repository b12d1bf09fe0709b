import { percentOf, resourceBarTone, type Dashboard } from '@console/domain';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { formatCount, formatPercent, TONE_BAR } from './tone';
import { MESSAGES } from '../wording';

const m = MESSAGES.dashboardPages;

function Bar({ label, used, limit, note }: { label: string; used: number; limit: number; note?: string }) {
  const percent = percentOf(used, limit);
  return (
    <div className="space-y-1.5">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
        <span className="font-medium">{label}</span>
        <span className="tabular-nums text-muted-foreground">
          {formatCount(used)} / {formatCount(limit)} {percent === null ? '' : `(${formatPercent(percent)})`}
        </span>
      </div>
      {percent === null ? (
        <p className="text-xs text-muted-foreground">No agent limit is set.</p>
      ) : (
        <Progress
          value={Math.min(percent, 100)}
          aria-label={`${label}: ${formatPercent(percent)}`}
          indicatorClassName={TONE_BAR[resourceBarTone(percent)]}
          data-tone={resourceBarTone(percent)}
        />
      )}
      {note && <p className="text-xs text-muted-foreground">{note}</p>}
    </div>
  );
}

/** Agent limit use: active agents against the limit, and the children's limits against the own. */
export function ResourceUtilizationCard({ data }: { data: Dashboard }) {
  const { resources, organization } = data;
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle className="text-base">{m.resourceUtilization}</CardTitle>
        <CardDescription>Use of the activated agent limit of {organization.name}.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        <Bar
          label="Active agents"
          used={resources.active_agents}
          limit={resources.activated_agent_limit}
          note={resources.active_agents === 0 ? m.noActivations : undefined}
        />
        {organization.org_type !== 'tenant' && (
          <Bar label="Limits given to child organizations" used={resources.children_limit_total} limit={resources.activated_agent_limit} />
        )}
      </CardContent>
    </Card>
  );
}
