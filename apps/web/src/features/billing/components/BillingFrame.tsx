import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { canHaveChildren, MESSAGES, type BillingResponse, type OrganizationDetail } from '@console/domain';
import { useOrganization } from '@/features/organizations/api/get-organization';
import { useOrgBase } from '@/features/organizations/use-org-base';
import { useAuth } from '@/lib/auth';
import { useBilling } from '../api/get-billing';
import { AgentLimitStatusCard } from './AgentLimitStatusCard';
import { BillingHeader } from './BillingHeader';
import { LimitRangeCard } from './LimitRangeCard';
import { LoadError } from './LoadError';
import { LoadingRows } from './LoadingRows';

export interface LoadedBilling {
  org: OrganizationDetail;
  billing: BillingResponse;
  /** Where Allocate Credits leads, or null when it cannot be offered here. */
  allocateHref: string | null;
  /** The organizations section the page is under (/orgs or /organizations). */
  base: string;
}

/**
 * The frame of both billing pages for {base}/:id: the header, and the organization with its
 * billing loaded (with their error and loading states) before `children` renders them.
 */
export function BillingFrame({ title, children }: { title: string; children(loaded: LoadedBilling): ReactNode }) {
  const { id = '' } = useParams();
  const base = useOrgBase();
  const { claims } = useAuth();
  const organization = useOrganization(id);
  const billing = useBilling(id);

  let body: ReactNode;
  if (organization.isError) {
    body = <LoadError error={organization.error} title={MESSAGES.organizations.failedToLoadDetails} />;
  } else if (billing.isError) {
    body = <LoadError error={billing.error} title={MESSAGES.billing.loadFailed} />;
  } else if (organization.isPending || billing.isPending) {
    body = <LoadingRows rows={3} className="h-24" />;
  } else {
    const org = organization.data;
    // From here credits go to this organization when it is an active direct child, or to a child of the own organization.
    const allocateHref =
      billing.data.permissions.allocate_credits || (org.id === claims?.org_id && canHaveChildren(org.org_type))
        ? `${base}/${org.id}/allocate-credits`
        : null;
    body = children({ org, billing: billing.data, allocateHref, base });
  }

  return (
    <section className="space-y-6">
      <BillingHeader title={title} backTo={`${base}/${id}`} name={organization.data?.name} orgType={organization.data?.org_type} />
      {body}
    </section>
  );
}

/** The Agent Limits tab of both pages: the status card with Adjust Limit, and the allowed range. */
export function AgentLimitCards({ org, billing }: Pick<LoadedBilling, 'org' | 'billing'>) {
  return (
    <>
      <AgentLimitStatusCard organizationId={org.id} orgType={org.org_type} billing={billing} />
      <LimitRangeCard billing={billing} />
    </>
  );
}
