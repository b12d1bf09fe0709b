import { type AgentTypeStatus } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { agentQueries } from '@/api/agents';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { AGENT_KIND_LABELS, formatPrice } from '@/lib/agents';
import { AgentTypeDialog } from '../components/AgentTypeDialog';
import { RetireAgentTypeButton } from '../components/RetireAgentTypeButton';
import { MESSAGES } from '@/lib/wording';

const a = MESSAGES.agentPages;

const STATUS: Record<AgentTypeStatus, { label: string; variant: 'secondary' | 'outline' }> = {
  active: { label: a.statusActive, variant: 'secondary' },
  retired: { label: a.statusRetired, variant: 'outline' },
};

/**
 * The agent catalog (house admins; the route lets no one else in): every type with its code,
 * name, kind, unit, current price and status; New agent type, Edit, and Retire for active ones.
 */
export default function AgentCatalogPage() {
  const catalog = useQuery(agentQueries.types());
  return (
    <section className="space-y-6">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1">
          <h1 className="text-3xl font-bold tracking-tight">{a.catalogTitle}</h1>
          <p className="text-muted-foreground">{a.catalogSubtitle}</p>
        </div>
        <AgentTypeDialog />
      </header>
      <Card>
        <CardContent>
          {catalog.isPending ? (
            <LoadingRows />
          ) : catalog.isError ? (
            <QueryError error={catalog.error} title={a.loadCatalogFailed} onRetry={catalog.refetch} />
          ) : catalog.data.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">{a.catalogEmpty}</p>
          ) : (
            <Table aria-label={a.catalogTitle}>
              <TableHeader>
                <TableRow>
                  <TableHead>Code</TableHead>
                  <TableHead>Name</TableHead>
                  <TableHead>Kind</TableHead>
                  <TableHead>Unit</TableHead>
                  <TableHead>Price</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead className="sr-only">Actions</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {catalog.data.map((type) => (
                  <TableRow key={type.id}>
                    <TableCell>
                      <code className="text-xs">{type.code}</code>
                    </TableCell>
                    <TableCell className="whitespace-normal">
                      <div className="font-medium">{type.name}</div>
                      {type.description && <div className="max-w-72 text-xs text-muted-foreground">{type.description}</div>}
                    </TableCell>
                    <TableCell>{AGENT_KIND_LABELS[type.kind]}</TableCell>
                    <TableCell>{type.unit}</TableCell>
                    <TableCell className="tabular-nums">{formatPrice(type.price, type.unit)}</TableCell>
                    <TableCell>
                      <Badge variant={STATUS[type.status].variant}>{STATUS[type.status].label}</Badge>
                    </TableCell>
                    <TableCell>
                      <div className="flex justify-end gap-2">
                        <AgentTypeDialog type={type} />
                        {type.status === 'active' && <RetireAgentTypeButton type={type} />}
                      </div>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
    </section>
  );
}
