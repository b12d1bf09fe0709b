import { type AgentTypeStatus, type AgentType } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent } from '@/components/ui/card';
import { agentQueries } from '@/api/agents';
import { DataTable, type Column } from '@/components/data-table';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { PageHeader } from '@/components/page-header';
import { AGENT_KIND_LABELS, formatPrice } from '@/lib/agents';
import { AgentTypeDialog } from '../components/agent-type-dialog';
import { RetireAgentTypeButton } from '../components/retire-agent-type-button';
import { MESSAGES } from '../wording';

const a = MESSAGES.agentPages;

const STATUS: Record<AgentTypeStatus, { label: string; variant: 'secondary' | 'outline' }> = {
  active: { label: a.statusActive, variant: 'secondary' },
  retired: { label: a.statusRetired, variant: 'outline' },
};

const COLUMNS: Column<AgentType>[] = [
  { head: 'Code', cell: (type) => <code className="text-xs">{type.code}</code> },
  {
    head: 'Name',
    className: 'whitespace-normal',
    cell: (type) => (
      <>
        <div className="font-medium">{type.name}</div>
        {type.description && <div className="max-w-72 text-xs text-muted-foreground">{type.description}</div>}
      </>
    ),
  },
  { head: 'Kind', cell: (type) => AGENT_KIND_LABELS[type.kind] },
  { head: 'Unit', cell: (type) => type.unit },
  { head: 'Price', className: 'tabular-nums', cell: (type) => formatPrice(type.price, type.unit) },
  { head: 'Status', cell: (type) => <Badge variant={STATUS[type.status].variant}>{STATUS[type.status].label}</Badge> },
  {
    head: 'Actions',
    headClassName: 'sr-only',
    cell: (type) => (
      <div className="flex justify-end gap-2">
        <AgentTypeDialog type={type} />
        {type.status === 'active' && <RetireAgentTypeButton type={type} />}
      </div>
    ),
  },
];

/**
 * The agent catalog (house admins; the route lets no one else in): every type with its code,
 * name, kind, unit, current price and status; New agent type, Edit, and Retire for active ones.
 */
export default function AgentCatalogPage() {
  const catalog = useQuery(agentQueries.types());
  return (
    <section className="space-y-6">
      <PageHeader title={a.catalogTitle} subtitle={a.catalogSubtitle}>
        <AgentTypeDialog />
      </PageHeader>
      <Card>
        <CardContent>
          {catalog.isPending ? (
            <LoadingRows />
          ) : catalog.isError ? (
            <QueryError error={catalog.error} title={a.loadCatalogFailed} onRetry={catalog.refetch} />
          ) : catalog.data.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">{a.catalogEmpty}</p>
          ) : (
            <DataTable label={a.catalogTitle} columns={COLUMNS} rows={catalog.data} />
          )}
        </CardContent>
      </Card>
    </section>
  );
}
