import { decodeJwtPart, normalizeClaims } from '@console/domain';
import { useEffect, useState } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { JsonBlock } from './json-block';
import { MESSAGES } from '@/lib/wording';
import { formatDateTime } from '@/lib/dates';

const d = MESSAGES.debugPages;

/** Seconds as "m:ss" (or "h:mm:ss"). */
export function formatCountdown(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const mm = Math.floor((seconds % 3600) / 60);
  const ss = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

/** Counts down to `exp` (seconds since the epoch), ticking every second. */
function useSecondsLeft(exp: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (exp === null) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [exp]);
  return exp === null ? null : Math.max(0, Math.floor(exp - now / 1000));
}

/**
 * The access token decoded in this browser (not verified): header, claims, the expiry
 * counting down, and the claims as the console normalizes them.
 */
export function JwtDebugCard({ token }: { token: string | null }) {
  const header = token ? decodeJwtPart(token, 0) : null;
  const payload = token ? decodeJwtPart(token, 1) : null;
  const exp = typeof payload?.exp === 'number' ? payload.exp : null;
  const left = useSecondsLeft(exp);
  const normalized = payload ? normalizeClaims(payload).claims : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{d.jwtDebugger}</CardTitle>
        <CardDescription>
          The current access token, decoded in this browser and not verified. The server never trusts these claims: it reads the role and
          organization from the database on every request.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted-foreground">Expires at</dt>
          <dd>{exp === null ? 'Not available' : formatDateTime(exp * 1000)}</dd>
          <dt className="text-muted-foreground">Expires in</dt>
          <dd className="tabular-nums" data-testid="token-expires-in" aria-live="off">
            {left === null ? 'Not available' : left === 0 ? d.tokenExpired : formatCountdown(left)}
          </dd>
        </dl>
        <div className="grid gap-4 lg:grid-cols-3">
          <JsonBlock label="Header" value={header} />
          <JsonBlock label="Claims" value={payload} />
          <JsonBlock label="Normalized claims" value={normalized} />
        </div>
      </CardContent>
    </Card>
  );
}
