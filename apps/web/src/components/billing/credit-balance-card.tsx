import { MESSAGES } from '@console/domain';
import { Coins } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatCredits } from '@/lib/credit-format';

const m = MESSAGES.billingPages;

/** The credit balance, with a link to the allocation page when the user may allocate from here. */
export function CreditBalanceCard({ balance, allocateHref }: { balance: string; allocateHref?: string | null }) {
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <Coins className="size-4 text-muted-foreground" aria-hidden />
          {m.creditBalance}
        </CardTitle>
        {allocateHref && <CardDescription>{m.allocateHint}</CardDescription>}
      </CardHeader>
      <CardContent className="space-y-3">
        <p className="text-2xl font-semibold tabular-nums break-words" data-testid="credit-balance">
          {formatCredits(balance)}
        </p>
        {allocateHref && (
          <Button asChild size="sm">
            <Link to={allocateHref}>{m.allocateCredits}</Link>
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
