import { decodeJwtPart, mayOpenDebug, mayReadOutbox, normalizeClaims } from '@console/domain';
import { ShieldAlert } from 'lucide-react';
import { useMemo } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { PageTabs } from '@/components/page-tabs';
import { JwtDebugCard } from '@/components/debug/jwt-debug-card';
import { useAuth } from '@/lib/auth';
import { useViewer } from '@/lib/use-viewer';
import { ChildOrganizationsDebugger } from '../components/child-organizations-debugger';
import { OutboxCard } from '../components/outbox-card';
import { ParsingLogsCard } from '../components/parsing-logs-card';
import { RoleVerificationCard } from '../components/role-verification-card';
import { StatusBreakdownCard } from '../components/status-breakdown-card';
import { MESSAGES } from '../wording';

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
      <PageTabs
        defaultValue="authentication"
        className="space-y-4"
        tabs={[
          {
            value: 'authentication',
            label: d.tabAuthentication,
            content: [<JwtDebugCard key="jwt" token={token} />, <RoleVerificationCard key="roles" token={token} />],
          },
          {
            value: 'organizations',
            label: d.tabOrganizations,
            content: [
              <StatusBreakdownCard key="status" organizationId={organizationId} />,
              <ChildOrganizationsDebugger key="children" organizationId={organizationId} />,
            ],
          },
          { value: 'parsing-logs', label: d.tabParsingLogs, content: <ParsingLogsCard log={log} /> },
          outbox && { value: 'outbox', label: d.tabOutbox, content: <OutboxCard /> },
        ]}
      />
    </section>
  );
}
