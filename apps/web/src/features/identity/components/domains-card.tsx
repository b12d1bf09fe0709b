import { claimDomainInputSchema, IDENTITY, type IdentityDomain, type IdentityView } from '@console/domain';
import { CheckCheck, Globe, RefreshCw } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { useApproveDomain, useClaimDomain, useRemoveDomain, useVerifyDomain } from '@/api/identity';
import { ConfirmButton } from '@/components/confirm-button';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { ErrorAlert } from '@/components/error-alert';
import { IconCardTitle } from '@/components/icon-card-title';
import { LabelledControl } from '@/components/labelled-control';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { announce } from '@/lib/announce';
import { ApiError } from '@/lib/api';
import { formatDateTime } from '@/lib/dates';
import { MESSAGES } from '../wording';
import { CopyValue } from './copy-value';

const d = MESSAGES.identityPages.domains;

const STATE_BADGES = { pending: 'outline', verified: 'secondary', approved: 'secondary' } as const;

/**
 * The organization's domain claims: claim one, and for each its state, the TXT record to
 * publish while it is pending, Verify now, Withdraw, and Approve by hand for a house admin
 * (`mayApprove`). Changes only when `mayManage`.
 */
export function DomainsCard({ view, mayManage, mayApprove }: { view: IdentityView; mayManage: boolean; mayApprove: boolean }) {
  const full = view.domains.length >= IDENTITY.maxDomains;
  return (
    <Card className="gap-4">
      <CardHeader>
        <IconCardTitle icon={Globe}>{d.title}</IconCardTitle>
        <CardDescription>{d.description(IDENTITY.maxDomains)}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {mayManage &&
          (full ? (
            <p className="text-sm text-muted-foreground">{d.limitReached(IDENTITY.maxDomains)}</p>
          ) : (
            <ClaimForm organizationId={view.organization_id} />
          ))}
        {view.domains.length === 0 ? (
          <p className="text-sm text-muted-foreground">{d.none}</p>
        ) : (
          <ul aria-label={d.listLabel} className="grid gap-3">
            {view.domains.map((domain) => (
              <DomainRow
                key={domain.id}
                organizationId={view.organization_id}
                domain={domain}
                mayManage={mayManage}
                mayApprove={mayApprove}
              />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function ClaimForm({ organizationId }: { organizationId: string }) {
  const [domain, setDomain] = useState('');
  const [error, setError] = useState<string | undefined>();
  const claim = useClaimDomain(organizationId);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = claimDomainInputSchema.safeParse({ domain });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    try {
      await claim.mutateAsync(parsed.data);
      toast.success(d.claimed(parsed.data.domain));
      setDomain('');
    } catch (failure) {
      // A refused domain (taken, invalid) is said beside the field.
      setError(failure instanceof ApiError ? (failure.fields.domain ?? failure.message) : d.claimFailed);
    }
  }

  return (
    <form
      noValidate
      aria-label={d.claim}
      className="flex flex-col gap-2 sm:flex-row sm:items-start"
      onSubmit={(event) => void submit(event)}
    >
      <div className="min-w-0 flex-1">
        <LabelledControl id="identity-claim-domain" label={d.domain} hint={d.domainHint} error={error}>
          {(aria) => (
            <Input
              id="identity-claim-domain"
              value={domain}
              autoComplete="off"
              spellCheck={false}
              inputMode="url"
              onChange={(event) => setDomain(event.target.value)}
              {...aria}
            />
          )}
        </LabelledControl>
      </div>
      <Button type="submit" className="sm:mt-[1.375rem]" disabled={claim.isPending}>
        {claim.isPending ? d.claiming : d.claim}
      </Button>
    </form>
  );
}

function DomainRow({
  organizationId,
  domain,
  mayManage,
  mayApprove,
}: {
  organizationId: string;
  domain: IdentityDomain;
  mayManage: boolean;
  mayApprove: boolean;
}) {
  const verify = useVerifyDomain(organizationId);
  const approve = useApproveDomain(organizationId);
  const remove = useRemoveDomain(organizationId);
  const [confirmApprove, setConfirmApprove] = useState(false);
  const pending = domain.state === 'pending';
  const headingId = `identity-domain-${domain.id}`;

  async function verifyNow() {
    try {
      const view = await verify.mutateAsync(domain.id);
      const now = view.domains.find((claim) => claim.id === domain.id);
      if (now && now.state !== 'pending') toast.success(d.verified(domain.domain));
    } catch {
      // What the lookup found is shown in the row.
    }
  }

  return (
    <li aria-labelledby={headingId} className="grid min-w-0 gap-3 rounded-md border p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="font-medium break-all">
          {domain.domain}
        </h3>
        <Badge variant={STATE_BADGES[domain.state]}>{d.states[domain.state]}</Badge>
      </div>
      {domain.state === 'verified' && domain.verified_at && (
        <p className="text-sm text-muted-foreground">{d.verifiedOn(formatDateTime(domain.verified_at))}</p>
      )}
      {domain.state === 'approved' && domain.approved_at && (
        <p className="text-sm text-muted-foreground">{d.approvedOn(formatDateTime(domain.approved_at), domain.approved_by)}</p>
      )}
      {pending && (
        <div className="grid gap-3">
          <p className="text-sm text-muted-foreground">{d.publish}</p>
          <div className="grid gap-3 md:grid-cols-2">
            <CopyValue label={d.recordName} copyName={d.recordNameOf(domain.domain)} value={domain.record_name} />
            <CopyValue label={d.recordValue} copyName={d.recordValueOf(domain.domain)} value={domain.record_value} />
          </div>
          {domain.checked_at && <p className="text-sm text-muted-foreground">{d.lastChecked(formatDateTime(domain.checked_at))}</p>}
          {verify.isError ? (
            <ErrorAlert title={d.notYet(domain.domain)} message={verify.error.message} />
          ) : (
            domain.check_error && <ErrorAlert title={d.notYet(domain.domain)} message={domain.check_error} />
          )}
        </div>
      )}
      {(mayManage || (pending && mayApprove)) && (
        <div className="flex flex-wrap gap-2">
          {pending && mayManage && (
            <Button
              type="button"
              size="sm"
              disabled={verify.isPending}
              aria-label={`${d.verify} ${domain.domain}`}
              onClick={() => void verifyNow()}
            >
              <RefreshCw aria-hidden className={verify.isPending ? 'animate-spin' : undefined} />
              {verify.isPending ? d.verifying : d.verify}
            </Button>
          )}
          {pending && mayApprove && (
            <ConfirmDialog
              open={confirmApprove}
              onOpenChange={setConfirmApprove}
              title={d.approveTitle(domain.domain)}
              description={d.approveBody}
              confirmLabel={d.approve}
              onConfirm={() => announce(approve.mutateAsync(domain.id), d.approved(domain.domain), d.approveFailed)}
              trigger={
                <Button type="button" size="sm" variant="outline" disabled={approve.isPending} aria-label={`${d.approve} ${domain.domain}`}>
                  <CheckCheck aria-hidden />
                  {d.approve}
                </Button>
              }
            />
          )}
          {mayManage && (
            <ConfirmButton
              label={d.withdraw}
              subject={domain.domain}
              pending={remove.isPending}
              title={d.withdrawTitle(domain.domain)}
              description={d.withdrawBody}
              onConfirm={() => announce(remove.mutateAsync(domain.id), d.withdrawn(domain.domain), d.withdrawFailed)}
            />
          )}
        </div>
      )}
    </li>
  );
}
