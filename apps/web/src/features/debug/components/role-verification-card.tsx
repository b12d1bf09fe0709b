import { decodeJwtPart } from '@console/domain';
import { AlertTriangle, CheckCircle2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useQuery } from '@tanstack/react-query';
import { userQueries } from '@/api/users';
import { QueryError } from '@/components/query-error';
import { MESSAGES } from '../wording';

const d = MESSAGES.debugPages;

/** The role of the token's app_metadata, as the server wrote it. */
export function tokenRole(token: string | null): string | null {
  const payload = token ? decodeJwtPart(token, 1) : null;
  const app = payload?.app_metadata;
  const role = app && typeof app === 'object' ? (app as Record<string, unknown>).role : undefined;
  return typeof role === 'string' ? role : null;
}

/**
 * The token's role against the database's (GET /api/users/me). They differ after a role
 * change until the token is refreshed, and the check says so.
 */
export function RoleVerificationCard({ token }: { token: string | null }) {
  const me = useQuery(userQueries.me());
  const fromToken = tokenRole(token);
  const verified = me.data ? me.data.role === fromToken : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{d.roleVerification}</CardTitle>
        <CardDescription>The role in the token's app_metadata compared with the role stored in the database.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {me.isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : me.isError ? (
          <QueryError error={me.error} title={d.fetchError} onRetry={me.refetch} />
        ) : (
          <>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-muted-foreground">Token role</dt>
              <dd data-testid="token-role">{fromToken ?? 'none'}</dd>
              <dt className="text-muted-foreground">Database role</dt>
              <dd data-testid="database-role">{me.data.role}</dd>
            </dl>
            {verified ? (
              <Badge className="bg-emerald-700 text-white">
                <CheckCircle2 aria-hidden />
                {d.verified}
              </Badge>
            ) : (
              <div className="space-y-1">
                <Badge variant="destructive">
                  <AlertTriangle aria-hidden />
                  {d.roleMismatch}
                </Badge>
                <p className="text-sm text-muted-foreground">
                  The database is authoritative; signing out and in again issues a token with the current role.
                </p>
              </div>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
