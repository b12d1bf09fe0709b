import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { canHaveChildren, mayAllocateFrom, mayAllocateTo, type BillingResponse, type OrganizationDetail } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { billingQueries } from '@/api/billing';
import { organizationQueries } from '@/api/organizations';
import { AgentLimitStatusCard } from '@/components/billing/agent-limit-status-card';
import { CreditBalanceCard } from '@/components/billing/credit-balance-card';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { TabsContent } from '@/components/ui/tabs';
import { useOrgBase } from '@/lib/org-base';
import { useViewer } from '@/lib/use-viewer';
import { BillingHeader } from './billing-header';
import { LimitRangeCard } from './limit-range-card';
import { MESSAGES } from '../wording';

export interface LoadedBilling {
  org: OrganizationDetail;
  billing: BillingResponse;
  /** Where Allocate Credits leads, or null when it cannot be offered here. */
  allocateHref: string | null;
  /** What Allocate Credits does here: credits into this organization (a direct child) or out of it (the own one). */
  allocateHint: string;
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
  const viewer = useViewer();
  const organization = useQuery({ ...organizationQueries.detail(id), enabled: !!id });
  const billing = useQuery({ ...billingQueries.settings(id), enabled: !!id });
  const notFound = MESSAGES.organizations.notFound;

  let body: ReactNode;
  if (organization.isError) {
    body = (
      <QueryError
        error={organization.error}
        title={MESSAGES.organizations.failedToLoadDetails}
        notFound={notFound}
        onRetry={organization.refetch}
      />
    );
  } else if (billing.isError) {
    body = <QueryError error={billing.error} title={MESSAGES.billing.loadFailed} notFound={notFound} onRetry={billing.refetch} />;
  } else if (organization.isPending || billing.isPending) {
    body = <LoadingRows rows={3} className="h-24" />;
  } else {
    const org = organization.data;
    // Credits go to this organization when it is an active direct child, or from here to a child of the own organization.
    const into = !!viewer && mayAllocateTo(viewer, org);
    const mayAllocate = into || (!!viewer && mayAllocateFrom(viewer, org) && canHaveChildren(org.org_type));
    const allocateHref = mayAllocate ? `${base}/${org.id}/allocate-credits` : null;
    const allocateHint = into ? MESSAGES.billingPages.allocateToHint : MESSAGES.billingPages.allocateHint;
    body = children({ org, billing: billing.data, allocateHref, allocateHint, base });
  }

  return (
    <section className="space-y-6">
      <BillingHeader title={title} backTo={`${base}/${id}`} name={organization.data?.name} orgType={organization.data?.org_type} />
      {body}
    </section>
  );
}

/** The Agent Limits tab of both pages: the status card with Adjust Limit, and the allowed range. */
export function AgentLimitsTab({ org, billing }: Pick<LoadedBilling, 'org' | 'billing'>) {
  return (
    <TabsContent value="limits" className="grid gap-4 lg:grid-cols-2">
      <AgentLimitStatusCard organization={org} billing={billing} />
      <LimitRangeCard billing={billing} />
    </TabsContent>
  );
}

/** The Credits tab of both pages: the balance, its low-balance threshold and Allocate Credits. */
export function CreditsTab({ org, billing, allocateHref, allocateHint }: Omit<LoadedBilling, 'base'>) {
  return (
    <TabsContent value="credits" className="grid gap-4 lg:grid-cols-2">
      <CreditBalanceCard
        organizationId={org.id}
        balance={billing.billing_settings.credit_balance}
        threshold={billing.billing_settings.low_balance_threshold}
        allocateHref={allocateHref}
        allocateHint={allocateHint}
      />
    </TabsContent>
  );
}
