import { type Dashboard } from '@console/domain';
import { useState } from 'react';
import { ChoiceButtons } from '@/components/choice-buttons';
import { Card, CardContent } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatUnitsOf } from '@/lib/agents';
import { formatCredits } from '@/lib/credit-format';
import { ActionCardHeader } from './action-card-header';
import { ScopeChoice, type Scope } from './scope-choice';
import { formatCount } from './tone';
import { MESSAGES } from '../wording';

const m = MESSAGES.dashboardPages;

type Period = 'last_7_days' | 'last_30_days';

/** Share of the period's credits, in whole percent, from exact decimal strings. */
function share(credits: string, total: string): number {
  const cents = (value: string) => Number(value.replace('.', ''));
  const whole = cents(total);
  return whole === 0 ? 0 : Math.round((cents(credits) / whole) * 100);
}

/** Usage by agent over the last 7 or 30 days: events, units and the credits they took. */
export function AgentAnalyticsCard({ data, initialPeriod = 'last_7_days' }: { data: Dashboard; initialPeriod?: Period }) {
  const [period, setPeriod] = useState<Period>(initialPeriod);
  // A parent's agents run below it: its whole subtree first, its own a click away.
  const subtree = data.agents.subtree;
  const [scope, setScope] = useState<Scope>(subtree ? 'subtree' : 'own');
  const figures = scope === 'subtree' && subtree ? subtree.usage : data.agents.usage;
  const usage = figures[period];
  return (
    <Card className="min-w-0 gap-4">
      <ActionCardHeader title={m.agentAnalytics} description={m.agentAnalyticsDescription}>
        <ChoiceButtons
          label="Period"
          className="flex gap-1"
          choices={(['last_7_days', 'last_30_days'] as const).map((value) => ({ value, label: `${figures[value].days} days` }))}
          value={period}
          onChange={setPeriod}
        />
      </ActionCardHeader>
      <CardContent className="space-y-3">
        {subtree && <ScopeChoice label={m.agentsScope} organizationName={data.organization.name} value={scope} onChange={setScope} />}
        {usage.by_agent.length === 0 ? (
          <p className="text-sm text-muted-foreground">{m.noUsageInPeriod(usage.days)}</p>
        ) : (
          <Table aria-label={`${m.agentAnalytics}, last ${usage.days} days`}>
            <TableHeader>
              <TableRow>
                <TableHead>Agent</TableHead>
                <TableHead className="text-right">Events</TableHead>
                <TableHead className="text-right">Units</TableHead>
                <TableHead className="text-right">Credits</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {usage.by_agent.map((agent) => {
                const percent = share(agent.credits, usage.credits);
                return (
                  <TableRow key={agent.agent_type_id}>
                    <TableCell className="min-w-28 whitespace-normal">
                      <div className="font-medium">{agent.name}</div>
                      <div className="mt-1 h-1.5 w-full max-w-40 overflow-hidden rounded-full bg-primary/15" aria-hidden>
                        <div className="h-full rounded-full bg-primary" style={{ width: `${percent}%` }} />
                      </div>
                    </TableCell>
                    <TableCell className="text-right tabular-nums">{formatCount(agent.events)}</TableCell>
                    {/* A figure and its unit may wrap apart: in a half-width card the four columns fit without scrolling. */}
                    <TableCell className="text-right whitespace-normal tabular-nums">{formatUnitsOf(agent.units, agent.unit)}</TableCell>
                    <TableCell className="text-right whitespace-normal tabular-nums">{formatCredits(agent.credits)}</TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
            <TableFooter>
              <TableRow>
                <TableCell className="font-medium">Total</TableCell>
                <TableCell className="text-right tabular-nums" data-testid="agents-events-total">
                  {formatCount(usage.events)}
                </TableCell>
                <TableCell />
                <TableCell className="text-right whitespace-normal tabular-nums" data-testid="agents-credits-total">
                  {formatCredits(usage.credits)}
                </TableCell>
              </TableRow>
            </TableFooter>
          </Table>
        )}
        <p className="text-xs text-muted-foreground">{m.notReportedFigures}</p>
      </CardContent>
    </Card>
  );
}
