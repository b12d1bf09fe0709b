import { useQuery } from '@tanstack/react-query';
import { RotateCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useReadableOrganization } from '@/components/organization-trail';
import { mayRetryLoad } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { organizationQueries } from '@/api/organizations';

const PICKER_SIZE = 100;

interface OrgPickerProps {
  id: string;
  /** The chosen organization, or null for the viewer's own. */
  value: string | null;
  onChange(organizationId: string | null): void;
  label: string;
}

/**
 * Picks an organization in the viewer's subtree: the own organization, then the first
 * descendants by name, narrowed by a search the server runs (a subtree may hold a million).
 * The chosen one stays in the list even when the search leaves it out. Shown only where
 * `showsOrganizationList` allows, since the server refuses the list to everyone else.
 */
export function OrgPicker({ id, value, onChange, label }: OrgPickerProps) {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim()), 300);
    return () => clearTimeout(timer);
  }, [typed]);
  const list = useQuery(organizationQueries.list({ view: 'descendants', search: search || undefined, page_size: PICKER_SIZE }));
  // The chosen one's name, read only when the viewer may read it (the same read as the page's trail).
  const chosen = useReadableOrganization(value);
  const own = list.data?.organization;
  const options = list.data?.organizations ?? [];
  const chosenMissing = value && !options.some((org) => org.id === value);
  return (
    <div className="flex flex-col gap-2 sm:flex-row">
      <Input
        aria-label={`Search ${label.toLowerCase()}`}
        placeholder="Search organizations"
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        className="sm:w-44"
      />
      <NativeSelect
        id={id}
        aria-label={label}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value || null)}
        className="sm:w-56"
      >
        <option value="">{own ? `${own.name} (yours)` : 'Your organization'}</option>
        {chosenMissing && <option value={value}>{chosen?.name ?? 'Selected organization'}</option>}
        {options.map((org) => (
          <option key={org.id} value={org.id}>
            {org.name}
          </option>
        ))}
      </NativeSelect>
      {/* Without the list only the own organization can be picked: say so, and offer to load it again. */}
      {list.isError && mayRetryLoad(list.error) && (
        <Button variant="outline" size="sm" className="self-start sm:self-center" onClick={() => void list.refetch()}>
          <RotateCw aria-hidden />
          Retry loading organizations
        </Button>
      )}
    </div>
  );
}
