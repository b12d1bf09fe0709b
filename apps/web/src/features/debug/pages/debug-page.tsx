import { decodeJwtPart, mayOpenDebug, mayReadOutbox, normalizeClaims } from '@console/domain';
import { ShieldAlert } from 'lucide-react';
import { useMemo } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { JwtDebugCard } from '@/components/debug/jwt-debug-card';
import { useAuth } from '@/lib/auth';
import { useViewer } from '@/lib/use-viewer';
import { ChildOrganizationsDebugger } from '../components/child-organizations-debugger';
import { OutboxCard } from '../components/outbox-card';
import { ParsingLogsCard } from '../components/parsing-logs-card';
import { RoleVerificationCard } from '../components/role-verification-card';
import { StatusBreakdownCard } from '../components/status-breakdown-card';
import { MESSAGES } from '@/lib/wording';

const d = MESSAGES.debugPages;

/** Debug tools, for those the debug permission lets in (the server refuses the same); the outbox for those who may read it. */
export default function DebugPage() {
  const { session } = useAuth();
  const viewer = useViewer();
  const token = session?.access_token ?? null;
  const log = useMemo(() => (token ? normalizeClaims(decodeJwtPart(token, 1)).log : []), [token]);
  if (!viewer || !mayOpenDebug(viewer)) {
    return (
      <Alert variant="destructive">
        <ShieldAlert aria-hidden />
        <AlertTitle>{MESSAGES.auth.accessDenied}</AlertTitle>
        <AlertDescription>{MESSAGES.organizations.debugOnly}</AlertDescription>
      </Alert>
    );
  }
  const organizationId = viewer.organization.id;
  const outbox = mayReadOutbox(viewer);
  return (
    <section className="space-y-6">
      <h1 className="text-3xl font-bold tracking-tight">{MESSAGES.shell.debugTitle}</h1>
      <Tabs defaultValue="authentication" className="space-y-4">
        <TabsList className="h-auto w-full flex-wrap sm:w-fit">
          <TabsTrigger value="authentication">{d.tabAuthentication}</TabsTrigger>
          <TabsTrigger value="organizations">{d.tabOrganizations}</TabsTrigger>
          <TabsTrigger value="parsing-logs">{d.tabParsingLogs}</TabsTrigger>
          {outbox && <TabsTrigger value="outbox">{d.tabOutbox}</TabsTrigger>}
        </TabsList>
        <TabsContent value="authentication" className="space-y-4">
          <JwtDebugCard token={token} />
          <RoleVerificationCard token={token} />
        </TabsContent>
        <TabsContent value="organizations" className="space-y-4">
          <StatusBreakdownCard organizationId={organizationId} />
          <ChildOrganizationsDebugger organizationId={organizationId} />
        </TabsContent>
        <TabsContent value="parsing-logs">
          <ParsingLogsCard log={log} />
        </TabsContent>
        {outbox && (
          <TabsContent value="outbox">
            <OutboxCard />
          </TabsContent>
        )}
      </Tabs>
    </section>
  );
}
