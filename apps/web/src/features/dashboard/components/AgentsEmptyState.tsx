import { Bot } from 'lucide-react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';

/** An agent widget with no data source: a title and one line saying why, never sample figures. */
export function AgentsEmptyState({ title, reason }: { title: string; reason: string }) {
  return (
    <Card className="gap-3">
      <CardHeader>
        <CardTitle className="text-base">{title}</CardTitle>
      </CardHeader>
      <CardContent className="flex items-start gap-3 text-sm text-muted-foreground">
        <Bot className="mt-0.5 size-4 shrink-0" aria-hidden />
        <p>{reason}</p>
      </CardContent>
    </Card>
  );
}
