import { ORG_STATUSES, ORG_TYPES, ORG_TYPE_LABELS, type OrgStatus, type OrgType } from '@console/domain';
import { Search } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import type { ListParams, ListParamsPatch } from '../use-list-params';
import { ORG_STATUS_LABELS } from './OrgStatusBadge';

/** Typing pauses this long before the list is asked again: one request per word, not per key. */
export const SEARCH_DEBOUNCE_MS = 300;

const ALL = 'all';

interface OrganizationFiltersProps {
  params: Pick<ListParams, 'search' | 'status' | 'org_type'>;
  onChange(patch: ListParamsPatch): void;
}

/** Search box, status filter (all, active, inactive, suspended) and type filter (all and the four types). */
export function OrganizationFilters({ params, onChange }: OrganizationFiltersProps) {
  const id = useId();
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
    <div className="grid gap-3 sm:grid-cols-[1fr_auto_auto]">
      <div className="relative">
        <Label htmlFor={`${id}-search`} className="sr-only">
          Search organizations
        </Label>
        <Search className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
        <Input
          id={`${id}-search`}
          type="search"
          placeholder="Search by name…"
          className="pl-8"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>
      <div className="grid grid-cols-[3rem_minmax(0,1fr)] items-center gap-2 sm:flex">
        <Label htmlFor={`${id}-status`} className="font-normal text-muted-foreground">
          Status
        </Label>
        <NativeSelect
          id={`${id}-status`}
          className="w-full sm:w-36"
          value={params.status ?? ALL}
          onChange={(event) =>
            onChange({ status: event.target.value === ALL ? undefined : (event.target.value as OrgStatus) })
          }
        >
          <option value={ALL}>All statuses</option>
          {ORG_STATUSES.map((status) => (
            <option key={status} value={status}>
              {ORG_STATUS_LABELS[status]}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid grid-cols-[3rem_minmax(0,1fr)] items-center gap-2 sm:flex">
        <Label htmlFor={`${id}-type`} className="font-normal text-muted-foreground">
          Type
        </Label>
        <NativeSelect
          id={`${id}-type`}
          className="w-full sm:w-40"
          value={params.org_type ?? ALL}
          onChange={(event) =>
            onChange({ org_type: event.target.value === ALL ? undefined : (event.target.value as OrgType) })
          }
        >
          <option value={ALL}>All types</option>
          {ORG_TYPES.map((type) => (
            <option key={type} value={type}>
              {ORG_TYPE_LABELS[type]}
            </option>
          ))}
        </NativeSelect>
      </div>
    </div>
  );
}
