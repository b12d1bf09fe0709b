import { mayAllocateTo, mayManageBilling, type OrganizationDetail } from '@console/domain';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { LowBalanceAlert } from '@/components/credits/low-balance-alert';
import { formatCredits } from '@/lib/credit-format';
import { useViewer } from '@/lib/use-viewer';

/**
 * Credit balance (with the low-balance warning below the organization's own threshold) and
 * activated agent limit, with Manage Billing and Allocate Credits for those who may.
 */
export function BillingOverviewCard({ organization, base }: { organization: OrganizationDetail; base: string }) {
  const viewer = useViewer();
  const path = `${base}/${organization.id}`;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Billing Overview</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <dl className="grid gap-4 sm:grid-cols-2">
          <div>
            <dt className="text-sm text-muted-foreground">Credit balance</dt>
            <dd className="text-2xl font-semibold tabular-nums">{formatCredits(organization.credit_balance)}</dd>
          </div>
          <div>
            <dt className="text-sm text-muted-foreground">Activated agent limit</dt>
            <dd className="text-2xl font-semibold tabular-nums">{organization.activated_agent_limit}</dd>
          </div>
        </dl>
        <LowBalanceAlert
          balance={organization.credit_balance}
          threshold={organization.organization_billing_settings.low_balance_threshold}
        />
        <div className="flex flex-wrap gap-2">
          {!!viewer && mayManageBilling(viewer) && (
            <Button asChild variant="outline">
              <Link to={`${path}/billing`}>Manage Billing</Link>
            </Button>
          )}
          {!!viewer && mayAllocateTo(viewer, organization) && (
            <Button asChild>
              <Link to={`${path}/allocate-credits`}>Allocate Credits</Link>
            </Button>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
