import { INVITATION_RETRY } from '@console/domain';
import { AlertCircle, Loader2, RefreshCw, RotateCw, Timer } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { reloadPage } from '@/lib/reload';
import type { InvitationsLoadState } from '../use-invitations-retry';
import { MESSAGES } from '../wording';

const m = MESSAGES.invitations;
const MAX = INVITATION_RETRY.maxAttempts;

function RefreshPageButton() {
  return (
    <Button variant="outline" size="sm" onClick={() => reloadPage()}>
      <RefreshCw aria-hidden />
      {m.refreshPage}
    </Button>
  );
}

/** A new account's first load, retried on its own: progress over the attempts, Manual Retry, Refresh Page after a few. */
export function InvitationsSetupScreen({ state }: { state: Extract<InvitationsLoadState, { kind: 'setup' }> }) {
  const { attempts, manualLeft, manualRetry } = state;
  return (
    <section aria-labelledby="invitations-setup-title" className="space-y-4 rounded-md border p-6">
      <div className="flex items-center gap-2">
        <Loader2 className="size-4 animate-spin text-muted-foreground" aria-hidden />
        <h3 id="invitations-setup-title" className="font-medium">
          {m.setupTitle}
        </h3>
      </div>
      <p className="text-sm text-muted-foreground">{m.setupBody}</p>
      <Progress value={(attempts / MAX) * 100} aria-label={m.attempt(attempts, MAX)} />
      {/* Announced as it changes; the buttons around it are not. */}
      <div role="status" className="space-y-1 text-sm">
        <p>{m.attempt(attempts, MAX)}</p>
        {attempts >= INVITATION_RETRY.slowAfter && (
          <p className="flex items-center gap-2 font-medium text-amber-700 dark:text-amber-400">
            <Timer className="size-4" aria-hidden />
            {m.slow}
          </p>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          onClick={manualRetry}
          disabled={manualLeft <= 0}
          aria-describedby={manualLeft <= 0 ? 'invitations-manual-used' : undefined}
        >
          <RotateCw aria-hidden />
          {m.manualRetry}
        </Button>
        {attempts >= INVITATION_RETRY.refreshAfter && <RefreshPageButton />}
      </div>
      {manualLeft <= 0 && (
        <p id="invitations-manual-used" className="text-sm text-muted-foreground">
          {m.manualRetriesUsed}
        </p>
      )}
    </section>
  );
}

/** A transient failure: the reason, Retry Once, Auto Retry, Refresh Page and what to try. */
export function InvitationsErrorScreen({ state }: { state: Extract<InvitationsLoadState, { kind: 'error' }> }) {
  const { error, busy, auto, retryOnce, autoRetry } = state;
  const running = !!auto?.running;
  return (
    <Alert variant="destructive">
      <AlertCircle aria-hidden />
      <AlertTitle>{m.errorTitle}</AlertTitle>
      <AlertDescription className="space-y-3">
        <p>{error.message}</p>
        {running && (
          <p role="status" className="text-foreground">
            {m.autoRetrying(Math.max(auto.attempts, 1), MAX)}
          </p>
        )}
        {!running && auto && auto.attempts >= MAX && <p className="text-foreground">{m.autoRetryStopped(MAX)}</p>}
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={retryOnce} disabled={busy}>
            <RotateCw aria-hidden />
            {m.retryOnce}
          </Button>
          <Button variant="outline" size="sm" onClick={autoRetry} disabled={running || busy}>
            <RotateCw aria-hidden />
            {m.autoRetry}
          </Button>
          <RefreshPageButton />
        </div>
        <div className="text-foreground">
          <h3 className="font-medium">{m.troubleshootingTitle}</h3>
          <ol className="list-decimal space-y-1 pl-5 text-muted-foreground">
            {m.troubleshooting.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        </div>
      </AlertDescription>
    </Alert>
  );
}
