import { INVOICE_STATES, INVOICE_STATE_LABELS, type InvoiceState } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { invoiceQueries } from '@/api/invoices';
import { organizationQueries } from '@/api/organizations';
import { FilterSelect } from '@/components/filter-select';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { showsOrganizationList } from '@/lib/org-reach';
import { useSearchPatch } from '@/lib/use-search-patch';
import { useViewer } from '@/lib/use-viewer';
import { MESSAGES } from '../wording';
import { InvoiceTable } from './invoice-table';

const w = MESSAGES.invoicePages;
const PAGE_SIZE = 25;
const CHILDREN_SHOWN = 100;

const stateOf = (value: string | null): InvoiceState | undefined =>
  (INVOICE_STATES as readonly string[]).includes(value ?? '') ? (value as InvoiceState) : undefined;

/** The own organization's direct children to filter by, where the viewer may list them; the chosen one stays even when not among them. */
function ChildFilter({ value, onChange }: { value: string | null; onChange(childId: string | null): void }) {
  const viewer = useViewer();
  const children = useQuery({
    ...organizationQueries.list({ view: 'children', page_size: CHILDREN_SHOWN }),
    enabled: showsOrganizationList(viewer),
  });
  const options = children.data?.organizations ?? [];
  const names = new Map(options.map((org) => [org.id, org.name]));
  if (!showsOrganizationList(viewer) && !value) return null;
  return (
    <div className="grid gap-2 sm:w-56">
      <Label htmlFor="invoices-child">{w.childFilter}</Label>
      <FilterSelect
        id="invoices-child"
        value={value}
        onChange={onChange}
        all={w.allChildren}
        options={options.map((org) => org.id)}
        labelOf={(id) => names.get(id) ?? id}
      >
        {value && !names.has(value) && <option value={value}>{w.selectedChild}</option>}
      </FilterSelect>
    </div>
  );
}

/**
 * A list of issued invoices, one side of the own organization's: those it issued to its
 * children (filtered by state and child) or those its seller issued to it (by state), a page
 * at a time. The filters and the page are in the address, so Back restores them.
 */
export function InvoiceListPanel({ organizationId, side }: { organizationId: string; side: 'issued' | 'received' }) {
  const [params, update] = useSearchPatch();
  const state = stateOf(params.get('state'));
  const buyerId = side === 'issued' ? params.get('buyer_id') : null;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const list = useQuery(invoiceQueries.list(organizationId, { side, state, buyer_id: buyerId ?? undefined, page, page_size: PAGE_SIZE }));
  const filtered = !!state || !!buyerId;
  const sellerName = side === 'received' ? list.data?.invoices[0]?.seller.name : undefined;
  const title = side === 'issued' ? w.issuedTitle : sellerName ? w.receivedFrom(sellerName) : w.receivedTitle;

  let body;
  if (list.isPending) body = <LoadingRows />;
  else if (list.isError) body = <QueryError error={list.error} title={w.loadFailed} onRetry={list.refetch} />;
  else if (list.data.invoices.length === 0) {
    body = (
      <p className="rounded-md border border-dashed p-6 text-center text-sm text-muted-foreground">
        {side === 'received' && !filtered ? w.emptyReceived : w.empty}
      </p>
    );
  } else {
    const { total, total_pages: pages } = list.data;
    const from = (page - 1) * PAGE_SIZE + 1;
    body = (
      <div className="space-y-4">
        <InvoiceTable invoices={list.data.invoices} side={side} />
        <div className="flex flex-col gap-3 text-sm sm:flex-row sm:items-center sm:justify-between">
          <p className="text-muted-foreground" aria-live="polite">
            {w.shown(from, Math.min(page * PAGE_SIZE, total), total)}
          </p>
          <div className="flex items-center gap-3">
            <span className="text-muted-foreground">{w.pageOf(page, pages)}</span>
            <Button
              variant="outline"
              size="sm"
              disabled={page <= 1}
              onClick={() => update({ page: page > 2 ? String(page - 1) : undefined })}
            >
              {w.previous}
            </Button>
            <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => update({ page: String(page + 1) })}>
              {w.next}
            </Button>
          </div>
        </div>
      </div>
    );
  }

  return (
    <Card className="min-w-0 gap-4">
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{side === 'issued' ? w.issuedBody : w.receivedBody}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
          <div className="grid gap-2 sm:w-48">
            <Label htmlFor={`invoices-state-${side}`}>{w.stateFilter}</Label>
            <FilterSelect
              id={`invoices-state-${side}`}
              value={state ?? null}
              onChange={(next) => update({ state: next ?? undefined, page: undefined })}
              all={w.allStates}
              options={INVOICE_STATES}
              labelOf={(value) => INVOICE_STATE_LABELS[value]}
            />
          </div>
          {side === 'issued' && (
            <ChildFilter value={buyerId} onChange={(next) => update({ buyer_id: next ?? undefined, page: undefined })} />
          )}
        </div>
        {body}
      </CardContent>
    </Card>
  );
}
