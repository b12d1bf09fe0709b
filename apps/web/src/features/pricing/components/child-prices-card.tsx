import type { ChildPrice, PriceBook } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { toast } from 'sonner';
import { useClearChildPrice, pricingQueries } from '@/api/pricing';
import { ConfirmButton } from '@/components/confirm-button';
import { ResponsiveDataTable, type Column } from '@/components/data-table';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { StackedCard } from '@/components/stacked-card';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatPrice } from '@/lib/agents';
import { MESSAGES } from '../wording';
import { ChildPriceDialog } from './child-price-dialog';

const p = MESSAGES.pricingPages;

const paysOf = (item: ChildPrice) => (
  <div className="space-y-1">
    <div className="flex flex-wrap items-center gap-2">
      <span className="tabular-nums">{item.child_pays === null ? p.noPrice : formatPrice(item.child_pays, item.agent_type.unit)}</span>
      {item.floored && <Badge variant="destructive">{p.floored}</Badge>}
    </div>
    {item.floored && <p className="max-w-80 text-xs whitespace-normal text-muted-foreground">{p.childFloored}</p>}
  </div>
);

/**
 * The prices set for single direct children: each replaces the book for that child and its
 * subtree. Set, Edit and Remove show exactly where the server says the viewer may (can_edit),
 * for the children and the priced, active agents it would take.
 */
export function ChildPricesCard({ book }: { book: PriceBook }) {
  const organizationId = book.organization_id;
  const prices = useQuery(pricingQueries.childPrices(organizationId));
  const clear = useClearChildPrice(organizationId);
  const agents = book.items.filter((item) => item.my_price !== null && item.agent_type.status === 'active');
  const data = prices.data;
  // Removing stands wherever the server lets the viewer edit; setting needs a child and a priced, active agent too.
  const canEdit = !!data?.can_edit && data.children.length > 0;
  const canSet = canEdit && agents.length > 0;

  function remove(item: ChildPrice) {
    clear.mutate(
      { childId: item.child.id, agentTypeId: item.agent_type.id },
      {
        onSuccess: () => toast.success(p.childPriceRemoved(item.child.name)),
        onError: (error) => toast.error(p.childPriceRemoveFailed, { description: error.message }),
      },
    );
  }

  const actions = (item: ChildPrice) =>
    canEdit && data!.children.some((child) => child.id === item.child.id) ? (
      <div className="flex justify-end gap-2">
        {canSet && item.agent_type.status === 'active' && (
          <ChildPriceDialog organizationId={organizationId} children={data!.children} agents={agents} current={item} />
        )}
        <ConfirmButton
          label={p.removeChildPrice}
          subject={`${item.agent_type.name} ${item.child.name}`}
          pending={clear.isPending}
          title={p.removeChildPriceTitle(item.child.name, item.agent_type.name)}
          description={p.removeChildPriceDescription}
          onConfirm={() => remove(item)}
        />
      </div>
    ) : null;

  const columns: (Column<ChildPrice & { id: string }> | false)[] = [
    { head: p.childColumnShort, className: 'whitespace-normal', cell: (item) => item.child.name },
    { head: p.agent, className: 'whitespace-normal', cell: (item) => item.agent_type.name },
    { head: p.childPrice, className: 'tabular-nums', cell: (item) => formatPrice(item.price, item.agent_type.unit) },
    { head: p.childPays, className: 'whitespace-normal', cell: paysOf },
    canEdit && { head: p.actions, headClassName: 'sr-only', cell: actions },
  ];

  let body;
  if (prices.isPending) body = <LoadingRows />;
  else if (prices.isError) body = <QueryError error={prices.error} title={p.childPricesLoadFailed} onRetry={prices.refetch} />;
  else if (prices.data.items.length === 0) body = <p className="py-6 text-center text-sm text-muted-foreground">{p.childPricesEmpty}</p>;
  else
    body = (
      <ResponsiveDataTable
        label={p.childPricesLabel}
        columns={columns}
        rows={prices.data.items.map((item) => ({ ...item, id: `${item.child.id}:${item.agent_type.id}` }))}
        card={(item) => (
          <StackedCard
            title={item.child.name}
            fields={[
              { label: p.agent, value: item.agent_type.name },
              { label: p.childPrice, value: formatPrice(item.price, item.agent_type.unit) },
              { label: p.childPays, value: paysOf(item) },
            ]}
            actions={actions(item)}
          />
        )}
      />
    );

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-2">
        <div className="grid gap-1.5">
          <CardTitle className="text-base">{p.childPricesTitle}</CardTitle>
          <CardDescription>{p.childPricesDescription}</CardDescription>
        </div>
        {canSet && <ChildPriceDialog organizationId={organizationId} children={data!.children} agents={agents} />}
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
