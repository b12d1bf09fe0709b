import { canHaveChildren, ENTRY_TYPES, mayAdjustBalance, mayAllocateFrom, mayViewBilling, pricingViewOf, UI } from '@console/domain';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Download, FileText, LayoutList, ListFilter, Send } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { ViewChoice } from '@/components/view-choice';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { SearchField } from '@/components/search-field';
import { Skeleton } from '@/components/ui/skeleton';
import { agentQueries } from '@/api/agents';
import { creditQueries, useExportLedger } from '@/api/credits';
import { useExportUsageEvents } from '@/api/usage-events';
import { LowBalanceAlert } from '@/components/credits/low-balance-alert';
import { Freshness } from '@/components/freshness';
import { LoadingRows } from '@/components/loading-rows';
import { OrganizationTrail, useReadableOrganization } from '@/components/organization-trail';
import { OrgPicker } from '@/components/organizations/org-picker';
import { QueryError } from '@/components/query-error';
import { ApiError } from '@/lib/api';
import { formatCredits, isLowBalance } from '@/lib/credit-format';
import { ENTRY_TYPE_LABELS } from '@/lib/entry-types';
import { orgBaseOf } from '@/lib/org-base';
import { statementsHref } from '@/lib/paths';
import { useDebouncedText } from '@/lib/use-debounced-text';
import { useMediaQuery } from '@/lib/use-media-query';
import { showsOrganizationList } from '@/lib/org-reach';
import { useViewer } from '@/lib/use-viewer';
import { AdjustBalanceDialog } from '../components/adjust-balance-dialog';
import { DateRangePicker } from '@/components/date-range-picker';
import { PageHeader } from '@/components/page-header';
import { FilterSelect } from '@/components/filter-select';
import { LedgerList } from '../components/ledger-list';
import { LedgerTable } from '../components/ledger-table';
import { useLedgerFilters } from '../ledger-filters';
import { MESSAGES } from '../wording';
import { announce } from '@/lib/announce';

const c = MESSAGES.credits;
const p = MESSAGES.creditPages;
type View = 'table' | 'list';

export default function CreditLedgerPage() {
  const viewer = useViewer();
  const location = useLocation();
  const ledgerFilters = useLedgerFilters();
  const { organizationId, entryType, agentTypeId, range, filters, setOrganizationId, setEntryType, setAgentTypeId, setRange } =
    ledgerFilters;
  const [q, setQ] = useDebouncedText(ledgerFilters.q, ledgerFilters.setQ);
  const [amountMin, setAmountMin] = useDebouncedText(ledgerFilters.amountMin, ledgerFilters.setAmountMin);
  const [amountMax, setAmountMax] = useDebouncedText(ledgerFilters.amountMax, ledgerFilters.setAmountMax);
  // Another organization of the viewer's subtree, opened with the selector or from its pages.
  const viewingOther = !!organizationId && organizationId !== viewer?.organization.id;
  const [chosenView, setView] = useState<View>('table');
  // Narrow screens show the list, where every column's value is reachable without scrolling sideways.
  const wide = useMediaQuery(`(min-width: ${UI.narrowBreakpointPx}px)`);
  const view: View = wide ? chosenView : 'list';
  // Narrow screens fold the filters behind one button, so the first entry is in view.
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filtersId = useId();
  const filtersOn = [
    organizationId,
    entryType !== 'all',
    agentTypeId,
    range,
    ledgerFilters.amountMin,
    ledgerFilters.amountMax,
    ledgerFilters.q,
  ].filter(Boolean).length;

  const ledger = useInfiniteQuery(creditQueries.ledger(filters));
  // Its name and the trail down to it, when the viewer may read it.
  const viewed = useReadableOrganization(viewingOther ? organizationId : null);
  // The catalog fills the agent filter.
  const catalog = useQuery(agentQueries.types());
  const agents = useMemo(() => new Map((catalog.data ?? []).map((type) => [type.id, type])), [catalog.data]);
  const agentIds = useMemo(() => [...agents.keys()], [agents]);
  const exporter = useExportLedger();
  const eventsExporter = useExportUsageEvents();

  const forbidden = ledger.error instanceof ApiError && ledger.error.status === 403;
  const failed = ledger.isError && !forbidden;
  useEffect(() => {
    if (failed) toast.error(MESSAGES.shell.errorTitle, { description: c.loadFailed });
  }, [failed, ledger.errorUpdatedAt]);

  // Credits leave only the own organization, and only one with children to receive them.
  const own = viewer?.organization;
  const mayAllocate =
    !viewingOther && !!viewer && mayAllocateFrom(viewer, viewer.organization) && canHaveChildren(viewer.organization.org_type);
  const mayAdjust = !viewingOther && !!viewer && mayAdjustBalance(viewer, viewer.organization);
  const allocatePath = `${orgBaseOf(location.pathname)}/${own?.id}/allocate-credits`;

  // What the server withholds of another organization's prices and earnings (the margins rule), said once.
  const pricing =
    viewer && viewingOther && viewed ? pricingViewOf(viewer, { id: viewed.id, parent_org_id: viewed.parent_org_id ?? null }) : null;
  const withheld =
    !pricing || !viewed
      ? null
      : !pricing.prices
        ? p.pricesWithheld(viewed.name)
        : !pricing.margins
          ? p.earningsWithheld(viewed.name)
          : null;

  const entries = ledger.data?.pages.flatMap((page) => page.entries) ?? [];
  const balance = ledger.data?.pages[0]?.credit_balance;
  const threshold = ledger.data?.pages[0]?.low_balance_threshold;

  const exportTransactions = () => announce(exporter.mutateAsync(filters), p.exported, p.exportFailed);
  // The events of the same organization, agent and dates (of occurrence), one row each.
  const exportEvents = () =>
    announce(
      eventsExporter.mutateAsync({
        organization_id: filters.organization_id,
        agent_type_id: filters.agent_type_id,
        from: filters.from,
        to: filters.to,
      }),
      p.eventsExported,
      p.eventsExportFailed,
    );

  if (forbidden && ledger.error) return <QueryError error={ledger.error} title={c.loadFailed} />;

  return (
    <section className="space-y-6">
      {viewingOther && <OrganizationTrail organization={viewed} page={MESSAGES.shell.nav.creditLedger} />}
      <PageHeader title={MESSAGES.shell.nav.creditLedger} subtitle={viewingOther ? p.historyOf(viewed?.name ?? null) : c.panelSubtitle}>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={exportTransactions} disabled={exporter.isPending}>
            <Download aria-hidden />
            {p.exportTransactions}
          </Button>
          <Button variant="outline" onClick={exportEvents} disabled={eventsExporter.isPending}>
            <Download aria-hidden />
            {p.exportEvents}
          </Button>
          {!!viewer && mayViewBilling(viewer) && (
            <Button variant="outline" asChild>
              <Link to={statementsHref(viewingOther ? organizationId : null)}>
                <FileText aria-hidden />
                {MESSAGES.invoicePages.statements.link}
              </Link>
            </Button>
          )}
          {mayAdjust && <AdjustBalanceDialog />}
          {mayAllocate && (
            <Button asChild>
              <Link to={allocatePath}>
                <Send aria-hidden />
                {p.allocateCredits}
              </Link>
            </Button>
          )}
        </div>
      </PageHeader>

      <Card>
        <CardHeader className="flex flex-wrap items-start justify-between gap-2">
          <div className="grid gap-1.5">
            <CardDescription>{p.creditBalance}</CardDescription>
            {balance === undefined ? (
              failed ? (
                <p className="text-sm text-muted-foreground">{c.loadFailed}</p>
              ) : (
                <Skeleton className="h-9 w-48" role="status" aria-label="Loading balance" />
              )
            ) : (
              <p className="text-3xl font-bold tabular-nums" data-testid="credit-balance">
                {formatCredits(balance)}
              </p>
            )}
          </div>
          {balance !== undefined && (
            <Freshness updatedAt={ledger.dataUpdatedAt} onRefresh={() => void ledger.refetch()} refreshing={ledger.isFetching} />
          )}
        </CardHeader>
        {balance !== undefined && threshold !== undefined && isLowBalance(balance, threshold) && (
          <CardContent>
            <LowBalanceAlert balance={balance} threshold={threshold} />
          </CardContent>
        )}
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>{c.panelTitle}</CardTitle>
          <CardDescription>{viewingOther ? p.entriesOf(viewed?.name ?? null) : c.panelSubtitle}</CardDescription>
          {withheld && <p className="text-sm text-muted-foreground">{withheld}</p>}
        </CardHeader>
        <CardContent className="space-y-4">
          {!wide && (
            <Button
              variant="outline"
              size="sm"
              aria-expanded={filtersOpen}
              aria-controls={filtersId}
              onClick={() => setFiltersOpen((open) => !open)}
            >
              <ListFilter aria-hidden />
              {p.filters}
              {filtersOn > 0 && ` ${p.filtersOn(filtersOn)}`}
            </Button>
          )}
          <div id={filtersId} hidden={!wide && !filtersOpen} className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
            {showsOrganizationList(viewer) && (
              <div className="grid gap-2">
                <Label htmlFor="ledger-organization">Organization</Label>
                <OrgPicker id="ledger-organization" label="Organization" value={organizationId} onChange={setOrganizationId} />
              </div>
            )}
            <div className="grid gap-2">
              <Label htmlFor="ledger-date-range">Date range</Label>
              <DateRangePicker id="ledger-date-range" value={range} onChange={setRange} />
            </div>
            <div className="grid gap-2 sm:w-56">
              <Label htmlFor="ledger-entry-type">Type</Label>
              <FilterSelect
                id="ledger-entry-type"
                value={entryType === 'all' ? null : entryType}
                onChange={(type) => setEntryType(type ?? 'all')}
                all="All types"
                options={ENTRY_TYPES}
                labelOf={(type) => ENTRY_TYPE_LABELS[type]}
              />
            </div>
            <div className="grid gap-2 sm:w-56">
              <Label htmlFor="ledger-agent">Agent</Label>
              <FilterSelect
                id="ledger-agent"
                value={agentTypeId}
                onChange={setAgentTypeId}
                all="All agents"
                options={agentIds}
                labelOf={(id) => {
                  const type = agents.get(id);
                  return type?.status === 'retired' ? `${type.name} (retired)` : (type?.name ?? id);
                }}
              >
                {agentTypeId && !agents.has(agentTypeId) && <option value={agentTypeId}>Selected agent</option>}
              </FilterSelect>
            </div>
            <div className="grid gap-2 sm:w-28">
              <Label htmlFor="ledger-amount-min">Min amount</Label>
              <Input id="ledger-amount-min" inputMode="decimal" value={amountMin} onChange={(event) => setAmountMin(event.target.value)} />
            </div>
            <div className="grid gap-2 sm:w-28">
              <Label htmlFor="ledger-amount-max">Max amount</Label>
              <Input id="ledger-amount-max" inputMode="decimal" value={amountMax} onChange={(event) => setAmountMax(event.target.value)} />
            </div>
            <SearchField id="ledger-search" className="sm:w-56" placeholder="Notes, reasons, names" value={q} onValueChange={setQ} />
            {wide && (
              <ViewChoice
                className="flex gap-1 sm:ml-auto"
                other={{ value: 'list', icon: LayoutList, name: 'List' }}
                value={view}
                onChange={setView}
              />
            )}
          </div>

          {ledger.isPending ? (
            <LoadingRows />
          ) : ledger.isError && entries.length === 0 ? (
            <QueryError error={ledger.error} title={c.loadFailed} onRetry={ledger.refetch} />
          ) : entries.length === 0 ? (
            <div className="rounded-md border border-dashed p-8 text-center">
              <p className="font-medium">{c.emptyTitle}</p>
              <p className="text-sm text-muted-foreground">{c.emptyBody}</p>
            </div>
          ) : view === 'table' ? (
            <LedgerTable entries={entries} />
          ) : (
            <LedgerList entries={entries} />
          )}

          {ledger.hasNextPage && (
            <div className="flex justify-center">
              <Button variant="outline" onClick={() => void ledger.fetchNextPage()} disabled={ledger.isFetchingNextPage}>
                {ledger.isFetchingNextPage ? 'Loading…' : p.loadMore}
              </Button>
            </div>
          )}
        </CardContent>
      </Card>
    </section>
  );
}
