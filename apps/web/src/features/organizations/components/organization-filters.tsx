import {
  isSeller,
  mayViewSellerBooks,
  ORG_ATTENTION_FILTERS,
  ORG_ATTENTION_LABELS,
  ORG_STATUSES,
  ORG_TYPES,
  ORG_TYPE_LABELS,
} from '@console/domain';
import { useEffect, useId, useRef, useState } from 'react';
import { Label } from '@/components/ui/label';
import { SearchField } from '@/components/search-field';
import { FilterSelect } from '@/components/filter-select';
import { useViewer } from '@/lib/use-viewer';
import type { ListParams, ListParamsPatch } from '../use-list-params';
import { ORG_STATUS_LABELS } from './org-status-badge';

/** Typing pauses this long before the list is asked again: one request per word, not per key. */
export const SEARCH_DEBOUNCE_MS = 300;

interface OrganizationFiltersProps {
  params: Pick<ListParams, 'search' | 'status' | 'org_type' | 'attention'>;
  onChange(patch: ListParamsPatch): void;
}

/**
 * Search box, status filter (all, active, inactive, suspended), type filter (all and the four
 * types) and attention filter (all, low balance, at or near the agent limit, and for a seller's
 * people overdue invoices).
 */
export function OrganizationFilters({ params, onChange }: OrganizationFiltersProps) {
  const id = useId();
  const viewer = useViewer();
  // Overdue invoices are those the viewer's own organization issued: only a seller's people who read its books filter by them.
  const billsChildren = !!viewer && isSeller(viewer.organization) && mayViewSellerBooks(viewer, viewer.organization);
  const attentionFilters = ORG_ATTENTION_FILTERS.filter((filter) => filter !== 'overdue_invoices' || billsChildren);
  const [search, setSearch] = useState(params.search);
  const latest = useRef(params.search);

  // A change from outside (Back, a link) replaces what is in the box.
  useEffect(() => {
    if (params.search !== latest.current) {
      latest.current = params.search;
      setSearch(params.search);
    }
  }, [params.search]);

  useEffect(() => {
    const value = search.trim();
    if (value === latest.current) return;
    const timer = window.setTimeout(() => {
      latest.current = value;
      onChange({ search: value });
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [search, onChange]);

  return (
    // The filters wrap onto the next line when the row is too narrow for them, never past its edge.
    <div className="flex flex-wrap gap-3">
      <SearchField
        id={`${id}-search`}
        label="Search organizations"
        hideLabel
        className="w-full sm:w-auto sm:min-w-56 sm:flex-1"
        placeholder="Search by name…"
        value={search}
        onValueChange={setSearch}
      />
      <div className="grid w-full grid-cols-[3rem_minmax(0,1fr)] items-center gap-2 sm:flex sm:w-auto">
        <Label htmlFor={`${id}-status`} className="font-normal text-muted-foreground">
          Status
        </Label>
        <FilterSelect
          id={`${id}-status`}
          className="w-full sm:w-36"
          value={params.status ?? null}
          onChange={(status) => onChange({ status: status ?? undefined })}
          all="All statuses"
          options={ORG_STATUSES}
          labelOf={(status) => ORG_STATUS_LABELS[status]}
        />
      </div>
      <div className="grid w-full grid-cols-[3rem_minmax(0,1fr)] items-center gap-2 sm:flex sm:w-auto">
        <Label htmlFor={`${id}-type`} className="font-normal text-muted-foreground">
          Type
        </Label>
        <FilterSelect
          id={`${id}-type`}
          className="w-full sm:w-40"
          value={params.org_type ?? null}
          onChange={(type) => onChange({ org_type: type ?? undefined })}
          all="All types"
          options={ORG_TYPES}
          labelOf={(type) => ORG_TYPE_LABELS[type]}
        />
      </div>
      <div className="grid w-full grid-cols-[3rem_minmax(0,1fr)] items-center gap-2 sm:flex sm:w-auto">
        <Label htmlFor={`${id}-attention`} className="font-normal text-muted-foreground">
          Show
        </Label>
        <FilterSelect
          id={`${id}-attention`}
          className="w-full sm:w-52"
          value={params.attention ?? null}
          onChange={(attention) => onChange({ attention: attention ?? undefined })}
          all="All organizations"
          options={attentionFilters}
          labelOf={(attention) => ORG_ATTENTION_LABELS[attention]}
        />
      </div>
    </div>
  );
}
