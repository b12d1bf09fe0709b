import { alertValueText, type Dashboard } from '@console/domain';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { MESSAGES } from '../wording';

const a = MESSAGES.alertLinePages;

/**
 * The attention list's own entries: the organization's alert lines crossed now, each with the
 * bound it states and the value that crossed it (no card when none is crossed).
 */
export function CrossedAlertLinesCard({ data }: { data: Dashboard }) {
  const lines = data.credits.crossed_alert_lines;
  if (lines.length === 0) return null;
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle className="text-base">{a.crossedTitle}</CardTitle>
        <CardDescription>{a.crossedDescription(lines.length)}</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y text-sm" aria-label={a.crossedTitle}>
          {lines.map((line) => (
            <li key={line.id} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-2">
              <span className="min-w-0 font-medium">{line.description}</span>
              <span className="inline-flex items-center gap-2">
                <Badge variant="destructive">{a.crossed}</Badge>
                {line.value !== null && <span className="tabular-nums">{alertValueText(line.kind, line.value)}</span>}
              </span>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
