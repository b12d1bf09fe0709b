import { isSsoSignInError, mayApproveDomainClaim, mayManageIdentity, mayReviewDomainClaims, type Actor } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { AlertCircle, CircleCheck, Info, X } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { identityQueries } from '@/api/identity';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { LoadingRows } from '@/components/loading-rows';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/lib/auth';
import { PATHS } from '@/lib/paths';
import { useViewer } from '@/lib/use-viewer';
import { MESSAGES } from '../wording';
import { DomainsCard } from '../components/domains-card';
import { PendingClaimsCard } from '../components/pending-claims-card';
import { ProviderCard } from '../components/provider-card';
import { ProvisioningLogCard } from '../components/provisioning-log-card';
import { ScimTokensCard } from '../components/scim-tokens-card';
import { SignInRulesCard } from '../components/sign-in-rules-card';

const w = MESSAGES.identityPages;

/** The query parameters the test sign-in comes back with. */
const TEST_PARAMS = ['test', 'test_error', 'email'] as const;

/**
 * Whether the viewer may approve their own organization's claims by hand. The console knows no
 * materialized paths, but the own organization is always within its own subtree.
 */
function mayApproveOwn(viewer: Actor): boolean {
  const path = `/${viewer.organization.id}/`;
  return mayApproveDomainClaim({ ...viewer, organization: { ...viewer.organization, path } }, { path });
}

/** What the test sign-in came back with (`?test=ok`, or `?test_error=<reason>`), until dismissed. */
function TestResult() {
  const [params, setParams] = useSearchParams();
  const passed = params.get('test') === 'ok';
  const reason = params.get('test_error');
  if (!passed && !reason) return null;
  const email = params.get('email');
  const dismiss = () =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const name of TEST_PARAMS) next.delete(name);
        return next;
      },
      { replace: true },
    );
  const message = passed
    ? email
      ? MESSAGES.identity.testPassed(email)
      : w.testPassedNoEmail
    : isSsoSignInError(reason)
      ? MESSAGES.identity.signInErrors[reason]
      : w.testFailedUnknown(reason ?? '');
  return (
    <Alert variant={passed ? 'info' : 'destructive'} className="pr-12">
      {passed ? <CircleCheck aria-hidden /> : <AlertCircle aria-hidden />}
      <AlertTitle>{passed ? w.testPassedTitle : w.testFailedTitle}</AlertTitle>
      <AlertDescription>{message}</AlertDescription>
      <Button variant="ghost" size="icon" className="absolute top-2 right-2 size-8" aria-label={w.dismiss} onClick={dismiss}>
        <X aria-hidden />
      </Button>
    </Alert>
  );
}

/**
 * /settings/identity: the own organization's single sign-on and provisioning, for its admins
 * (the route lets no one else in): the provider, the e-mail domains, the sign-in rules, the
 * house admins' review of the tree's pending domain claims, the SCIM tokens and the
 * provisioning log. Changes only when `mayManageIdentity` allows them (not while the
 * organization or one above it is frozen).
 */
export default function IdentityPage() {
  const viewer = useViewer();
  const { user } = useAuth();
  const organizationId = viewer?.organization.id ?? '';
  const view = useQuery({ ...identityQueries.view(organizationId), enabled: !!viewer });
  if (!viewer) return null;
  const mayManage = mayManageIdentity(viewer, viewer.organization);
  const organizationName = user?.organization.id === organizationId ? user.organization.name : '';

  return (
    <section className="min-w-0 space-y-6">
      <Breadcrumbs items={[{ label: MESSAGES.shell.nav.settings, to: PATHS.settings }, { label: w.title }]} />
      <PageHeader title={w.title} subtitle={w.subtitle(organizationName || w.yourOrganization)} />
      <TestResult />
      {!mayManage && (
        <Alert variant="info">
          <Info aria-hidden />
          <AlertDescription>{w.readOnly}</AlertDescription>
        </Alert>
      )}
      {view.isPending ? (
        <LoadingRows rows={['h-64 w-full', 'h-40 w-full', 'h-40 w-full']} />
      ) : view.isError ? (
        <QueryError error={view.error} title={w.loadFailed} onRetry={view.refetch} />
      ) : (
        <>
          <ProviderCard view={view.data} mayManage={mayManage} />
          <DomainsCard view={view.data} mayManage={mayManage} mayApprove={mayApproveOwn(viewer)} />
          {/* Saved rules (or a change the provider's removal made) start the form again from what the server holds. */}
          <SignInRulesCard
            key={`${view.data.jit_role}|${view.data.enforce_sso}|${view.data.break_glass?.id ?? ''}`}
            view={view.data}
            mayManage={mayManage}
          />
        </>
      )}
      {/* The house's admins review the whole tree's claims, whatever became of their own view; every
          claim listed is within their subtree, so approving it is allowed as for their own. */}
      {mayReviewDomainClaims(viewer) && <PendingClaimsCard mayApprove={mayApproveOwn(viewer)} />}
      <ScimTokensCard organizationId={organizationId} mayManage={mayManage} />
      <ProvisioningLogCard organizationId={organizationId} />
    </section>
  );
}
