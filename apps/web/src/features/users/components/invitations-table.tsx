import { mayManageInvitationsOf, PAGING, roleLabel, UI, type Invitation, type OrganizationFacts } from '@console/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Clock, Link2, MoreHorizontal, Send, XCircle } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { invitationQueries, useInvitationLink, useResendInvitation } from '@/api/invitations';
import { QueryError } from '@/components/query-error';
import { StackedCard } from '@/components/stacked-card';
import { formatDateTime } from '@/lib/dates';
import { useMediaQuery } from '@/lib/use-media-query';
import { useViewer } from '@/lib/use-viewer';
import { cn } from '@/lib/utils';
import { expiresSoon } from '../format';
import { useInvitationsRetry } from '../use-invitations-retry';
import { InvitationsErrorScreen, InvitationsSetupScreen } from './invitations-load-screens';
import { RevokeDialog } from './revoke-dialog';
import { TruncatedText } from '@/components/truncated-text';
import { MESSAGES } from '../wording';
import { announce } from '@/lib/announce';

const t = MESSAGES.teamPages;
/** The newest pending invitations shown at once. */
const PAGE_SIZE = 50;

type Pending = 'link' | 'resend' | 'revoke' | null;

/** Pending invitations of an organization (undefined: the viewer's own); making links, resending and revoking for those who may. */
export function InvitationsTable({
  organizationId,
  organization,
}: {
  organizationId?: string;
  organization: Pick<OrganizationFacts, 'id' | 'parent_org_id'> | null;
}) {
  const viewer = useViewer();
  const wide = useMediaQuery(`(min-width: ${UI.narrowBreakpointPx}px)`);
  const admin = !!viewer && !!organization && mayManageInvitationsOf(viewer, organization);
  const [page, setPage] = useState(1);
  const invitations = useQuery({
    ...invitationQueries.list({ organization_id: organizationId, status: 'pending', page, page_size: PAGE_SIZE }),
    // The page shown stays while the next one loads.
    placeholderData: keepPreviousData,
    // Retried by useInvitationsRetry, which shows each attempt.
    retry: false,
  });
  const load = useInvitationsRetry(invitations);

  if (load.kind === 'setup') return <InvitationsSetupScreen state={load} />;
  if (load.kind === 'error') return <InvitationsErrorScreen state={load} />;
  // What is left is a refusal or a broken request: shown as it is, without retries.
  if (invitations.isError) return <QueryError error={invitations.error} title={MESSAGES.invitations.listFailed} />;

  // More than one page: say which are shown of how many, with the way to the others.
  const pagination = invitations.data?.pagination;
  const pager =
    pagination && pagination.total_pages > 1 ? (
      <InvitationsPager
        page={pagination.page}
        total={pagination.total}
        totalPages={pagination.total_pages}
        onPage={setPage}
        busy={invitations.isFetching}
      />
    ) : null;

  if (!wide && invitations.data) {
    const shown = invitations.data.invitations;
    if (shown.length === 0) {
      return <p className="rounded-md border border-dashed p-6 text-center text-sm text-muted-foreground">{MESSAGES.invitations.empty}</p>;
    }
    return (
      <div className="space-y-3">
        <ul className="space-y-3" aria-label={t.tabInvitations}>
          {shown.map((invitation) => (
            <InvitationRow key={invitation.id} invitation={invitation} admin={admin} stacked />
          ))}
        </ul>
        {pager}
      </div>
    );
  }

  return (
    <div className="space-y-3">
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>Recipient</TableHead>
            <TableHead>Role</TableHead>
            <TableHead>Invited</TableHead>
            <TableHead>Expires</TableHead>
            <TableHead>Status</TableHead>
            {admin && <TableHead className="text-right">Actions</TableHead>}
          </TableRow>
        </TableHeader>
        <TableBody>
          {invitations.isPending ? (
            Array.from({ length: PAGING.skeletonRows }, (_, index) => (
              <TableRow key={index} data-testid="invitation-skeleton" aria-hidden>
                {Array.from({ length: admin ? 6 : 5 }, (__, cell) => (
                  <TableCell key={cell}>
                    <Skeleton className="h-5 w-full" />
                  </TableCell>
                ))}
              </TableRow>
            ))
          ) : invitations.data.invitations.length === 0 ? (
            <TableRow>
              <TableCell colSpan={admin ? 6 : 5} className="py-8 text-center text-muted-foreground">
                {MESSAGES.invitations.empty}
              </TableCell>
            </TableRow>
          ) : (
            invitations.data.invitations.map((invitation) => <InvitationRow key={invitation.id} invitation={invitation} admin={admin} />)
          )}
        </TableBody>
      </Table>
      {pager}
    </div>
  );
}

/** "Showing 51 to 100 of 120 pending invitations" with Previous and Next. */
function InvitationsPager({
  page,
  total,
  totalPages,
  onPage,
  busy,
}: {
  page: number;
  total: number;
  totalPages: number;
  onPage: (page: number) => void;
  busy: boolean;
}) {
  const from = (page - 1) * PAGE_SIZE + 1;
  const to = Math.min(page * PAGE_SIZE, total);
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
      <p className="text-muted-foreground" aria-live="polite">
        {t.invitationsShowing(from, to, total)}
      </p>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" disabled={busy || page <= 1} onClick={() => onPage(page - 1)}>
          {t.previousPage}
        </Button>
        <Button variant="outline" size="sm" disabled={busy || page >= totalPages} onClick={() => onPage(page + 1)}>
          {t.nextPage}
        </Button>
      </div>
    </div>
  );
}

/** A row of the table, or a card when stacked (narrow screens). */
function InvitationRow({ invitation, admin, stacked = false }: { invitation: Invitation; admin: boolean; stacked?: boolean }) {
  const soon = expiresSoon(invitation.expires_at);
  const [pending, setPending] = useState<Pending>(null);
  const name = `${invitation.first_name} ${invitation.last_name}`.trim();
  const invited = (
    <>
      <div>{formatDateTime(invitation.created_at)}</div>
      <div className="text-muted-foreground">{invitation.invited_by_name ? `by ${invitation.invited_by_name}` : t.inviterUnknown}</div>
    </>
  );
  const expires = (
    <span className={cn('inline-flex items-center gap-1', soon && 'font-medium text-amber-700 dark:text-amber-400')}>
      {soon && <Clock className="size-4" role="img" aria-label={t.expiresSoon} />}
      {formatDateTime(invitation.expires_at)}
    </span>
  );
  const status = (
    <Badge variant="outline" className="capitalize">
      {invitation.status}
    </Badge>
  );
  const actions = admin && (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="icon" aria-label={`Actions for ${invitation.email}`}>
            <MoreHorizontal aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuItem onSelect={() => setPending('link')}>
            <Link2 aria-hidden />
            {t.copyLink}
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => setPending('resend')}>
            <Send aria-hidden />
            {t.resend}
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => setPending('revoke')} className="text-destructive">
            <XCircle aria-hidden />
            {t.revoke}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <CopyLinkDialog invitation={invitation} open={pending === 'link'} onOpenChange={(open) => !open && setPending(null)} />
      <ResendDialog invitation={invitation} open={pending === 'resend'} onOpenChange={(open) => !open && setPending(null)} />
      <RevokeDialog invitation={invitation} open={pending === 'revoke'} onOpenChange={(open) => !open && setPending(null)} />
    </>
  );
  if (stacked) {
    return (
      <StackedCard
        className={cn(soon && 'bg-amber-50 dark:bg-amber-950/30')}
        title={
          <>
            <div title={name}>{name}</div>
            <div className="font-normal text-muted-foreground">{invitation.email}</div>
          </>
        }
        fields={[
          { label: 'Role', value: roleLabel(invitation.role) },
          { label: 'Invited', value: invited },
          { label: 'Expires', value: expires },
          { label: 'Status', value: status },
        ]}
        actions={actions || undefined}
      />
    );
  }
  return (
    <TableRow className={cn(soon && 'bg-amber-50 dark:bg-amber-950/30')} data-expiring={soon || undefined}>
      <TableCell className="max-w-72">
        <TruncatedText text={name} className="font-medium" />
        <TruncatedText text={invitation.email} className="text-muted-foreground" />
      </TableCell>
      <TableCell>{roleLabel(invitation.role)}</TableCell>
      <TableCell>{invited}</TableCell>
      <TableCell>{expires}</TableCell>
      <TableCell>{status}</TableCell>
      {admin && <TableCell className="text-right">{actions}</TableCell>}
    </TableRow>
  );
}

interface DialogProps {
  invitation: Invitation;
  open: boolean;
  onOpenChange(open: boolean): void;
}

async function copyToClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Copy link makes a fresh link: the mailed one stops working, which the dialog says first. */
function CopyLinkDialog({ invitation, open, onOpenChange }: DialogProps) {
  const makeLink = useInvitationLink();
  const [shown, setShown] = useState<string | null>(null);
  return (
    <>
      <ConfirmDialog
        open={open}
        onOpenChange={onOpenChange}
        title={t.copyLink}
        description={`${t.copyLinkConfirm(invitation.email)} ${t.copyLinkWarning}`}
        confirmLabel="Create and copy link"
        onConfirm={() =>
          makeLink.mutate(invitation.id, {
            onSuccess: async ({ link }) => {
              if (await copyToClipboard(link)) {
                toast.success(MESSAGES.invitations.linkCopied, { description: t.linkCopiedNote });
              } else {
                // No clipboard access (e.g. a browser permission): show the link to copy by hand.
                setShown(link);
              }
            },
            onError: (error) => toast.error(t.linkFailed, { description: error.message }),
          })
        }
      />
      <Dialog open={shown !== null} onOpenChange={(next) => !next && setShown(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{t.linkReadyTitle}</DialogTitle>
            <DialogDescription>{t.linkReadyBody}</DialogDescription>
          </DialogHeader>
          <Input aria-label={t.linkReadyTitle} readOnly value={shown ?? ''} onFocus={(event) => event.currentTarget.select()} />
        </DialogContent>
      </Dialog>
    </>
  );
}

function ResendDialog({ invitation, open, onOpenChange }: DialogProps) {
  const resend = useResendInvitation();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t.resend}
      description={`${t.resendConfirm(invitation.email)} ${t.resendWarning}`}
      confirmLabel="Resend"
      onConfirm={() => announce(resend.mutateAsync(invitation.id), MESSAGES.invitations.resent, MESSAGES.invitations.resendFailed)}
    />
  );
}
