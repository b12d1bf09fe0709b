import type { PendingDomainClaim } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { CheckCheck, CircleSlash, Inbox } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { identityQueries, useApprovePendingClaim } from '@/api/identity';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { ResponsiveDataTable } from '@/components/data-table';
import { ErrorAlert } from '@/components/error-alert';
import { IconCardTitle } from '@/components/icon-card-title';
import { LoadingRows } from '@/components/loading-rows';
import { OrganizationLink } from '@/components/organizations/organization-link';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { formatDateTime } from '@/lib/dates';
import { PATHS } from '@/lib/paths';
import { MESSAGES } from '../wording';

const c = MESSAGES.identityPages.pendingClaims;

type Approve = ReturnType<typeof useApprovePendingClaim>;

const claimantOf = (claim: PendingDomainClaim) => claim.claimed_by ?? c.unknownClaimant;

/** The claimant organization's name, leading to its page in the house's organization area. */
function ClaimOrganization({ claim }: { claim: PendingDomainClaim }) {
  return (
    <OrganizationLink
      organization={{ id: claim.organization_id, name: claim.organization_name }}
      to={`${PATHS.organizations}/${claim.organization_id}`}
    />
  );
}

/**
 * Approve by hand behind a confirmation saying what it skips and whose name it is recorded
 * in; for a taken domain only why it cannot be approved. The step-up the server asks for is
 * asked by the API client's dialog.
 */
function ClaimAction({ claim, approve, mayApprove }: { claim: PendingDomainClaim; approve: Approve; mayApprove: boolean }) {
  const [confirming, setConfirming] = useState(false);
  if (claim.taken) {
    return (
      <span className="inline-flex items-center gap-1.5 text-sm text-muted-foreground">
        <CircleSlash aria-hidden className="size-4 shrink-0" />
        {c.taken}
      </span>
    );
  }
  if (!mayApprove) return null;
  const busy = approve.isPending && approve.variables?.id === claim.id;

  async function confirm() {
    try {
      await approve.mutateAsync(claim);
      toast.success(c.approved(claim.domain));
    } catch {
      // The refusal is shown above the list, where it stays until the next approval.
    }
  }

  return (
    <ConfirmDialog
      open={confirming}
      onOpenChange={setConfirming}
      title={c.approveTitle(claim.domain, claim.organization_name)}
      description={c.approveBody}
      confirmLabel={c.approve}
      onConfirm={() => void confirm()}
      trigger={
        <Button
          type="button"
          size="sm"
          variant="outline"
          disabled={approve.isPending}
          aria-label={c.approveAria(claim.domain, claim.organization_name)}
        >
          <CheckCheck aria-hidden />
          {busy ? c.approving : c.approve}
        </Button>
      }
    />
  );
}

/** One claim as a card, for narrow screens. */
function ClaimItem({ claim, approve, mayApprove }: { claim: PendingDomainClaim; approve: Approve; mayApprove: boolean }) {
  return (
    <li className="grid min-w-0 gap-3 rounded-md border p-4">
      <div className="grid min-w-0 gap-0.5">
        <span className="font-medium break-all">{claim.domain}</span>
        <ClaimOrganization claim={claim} />
      </div>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
        <dt className="text-muted-foreground">{c.claimedBy}</dt>
        <dd className="break-all">{claimantOf(claim)}</dd>
        <dt className="text-muted-foreground">{c.claimedAt}</dt>
        <dd>{formatDateTime(claim.created_at)}</dd>
      </dl>
      <ClaimAction claim={claim} approve={approve} mayApprove={mayApprove} />
    </li>
  );
}

/**
 * For the house's admins (`mayReviewDomainClaims`): the pending domain claims of every
 * organization of the tree, oldest first, each approvable by hand when `mayApprove` (not
 * while the house is frozen) unless another organization's claim of the domain is in effect.
 */
export function PendingClaimsCard({ mayApprove }: { mayApprove: boolean }) {
  const claims = useQuery(identityQueries.pendingClaims());
  const approve = useApprovePendingClaim();
  const items = claims.data?.items ?? [];
  const failed = approve.isError ? approve.variables : undefined;
  return (
    <Card className="gap-4">
      <CardHeader>
        <IconCardTitle icon={Inbox}>{c.title}</IconCardTitle>
        <CardDescription>{c.description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {failed && <ErrorAlert title={c.approveFailed(failed.domain)} message={approve.error?.message} />}
        {claims.isPending ? (
          <LoadingRows rows={2} />
        ) : claims.isError ? (
          <QueryError error={claims.error} title={c.loadFailed} onRetry={claims.refetch} />
        ) : items.length === 0 ? (
          <p className="text-sm text-muted-foreground">{c.none}</p>
        ) : (
          <ResponsiveDataTable
            label={c.listLabel}
            rows={items}
            columns={[
              { head: c.organization, className: 'whitespace-normal', cell: (claim) => <ClaimOrganization claim={claim} /> },
              { head: c.domain, className: 'whitespace-normal break-all font-medium', cell: (claim) => claim.domain },
              { head: c.claimedBy, className: 'whitespace-normal break-all', cell: claimantOf },
              { head: c.claimedAt, cell: (claim) => formatDateTime(claim.created_at) },
              {
                head: c.actions,
                headClassName: 'sr-only',
                className: 'text-right',
                cell: (claim) => <ClaimAction claim={claim} approve={approve} mayApprove={mayApprove} />,
              },
            ]}
            card={(claim) => <ClaimItem claim={claim} approve={approve} mayApprove={mayApprove} />}
          />
        )}
      </CardContent>
    </Card>
  );
}
