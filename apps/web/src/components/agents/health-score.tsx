import { healthTone } from '@console/domain';
import { Progress } from '@/components/ui/progress';
import { TONE_BAR } from '@/lib/tone';
import { MESSAGES } from '@/lib/wording';

/** A health score out of 100 with a bar coloured as a rate, or "Not reported". */
export function HealthScore({ score }: { score: number | null }) {
  const tone = healthTone(score);
  if (score === null || tone === null) return <span className="text-muted-foreground">{MESSAGES.agentPages.notReported}</span>;
  return (
    <span className="flex items-center gap-2">
      <Progress
        value={score}
        className="h-1.5 w-16"
        indicatorClassName={TONE_BAR[tone]}
        aria-label={MESSAGES.agentPages.healthLabel(score)}
        data-tone={tone}
      />
      <span className="tabular-nums">{score}</span>
    </span>
  );
}
