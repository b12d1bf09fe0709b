import {
  mayListPeople,
  mayReadOrganization,
  mayViewBilling,
  mayViewOrganization,
  mayViewPerson,
  ORG_TYPE_LABELS,
  PAGING,
  type Actor,
} from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { creditQueries } from '@/api/credits';
import { organizationQueries } from '@/api/organizations';
import { userQueries } from '@/api/users';
import { formatCredits } from '@/lib/credit-format';
import { formatDateTime } from '@/lib/dates';
import { fullName } from '@/lib/format';
import { showsOrganizationList } from '@/lib/org-reach';
import { ledgerHref, PATHS } from '@/lib/paths';
import { useViewer } from '@/lib/use-viewer';
import { cn } from '@/lib/utils';
import { MESSAGES } from '@/lib/wording';
import { navItemsFor } from './nav-items';
import { PaletteField } from './palette-field';

const t = MESSAGES.shell.palette;

/** How long typing pauses before organizations and people are searched on the server. */
export const PALETTE_SEARCH_DELAY_MS = 300;
/** At most this many organizations and people are shown per search. */
const PALETTE_RESULTS = 8;
/**
 * The organization list answers only pages of its list's sizes (`PAGING.orgPageSizes`, else 400):
 * the palette asks for the smallest that holds its results and shows the first of them.
 */
const ORG_PAGE_SIZE = PAGING.orgPageSizes.find((size) => size >= PALETTE_RESULTS) ?? PAGING.orgPageSize;

/** One thing the palette can jump to. */
interface PaletteItem {
  /** Unique among all the palette's items: also its option's element id suffix. */
  key: string;
  label: string;
  detail?: string;
  to: string;
}

interface PaletteGroup {
  key: 'pages' | 'organizations' | 'people' | 'ledger';
  label: string;
  items: PaletteItem[];
  /** A server search for this group is under way. */
  pending?: boolean;
}

const matches = (text: string, needle: string) => text.toLocaleLowerCase().includes(needle.toLocaleLowerCase());

/**
 * What the palette offers for the typed text, each group only for a person who may see it:
 * pages as the navigation shows them (`navItemsFor`), organizations of the subtree and people
 * as the Organizations and Team pages list them (the same predicates gate the request, so
 * no role is sent a refusal; people of the whole subtree for those who may open the
 * organizations below), and the own organization's newest ledger entries.
 */
function usePaletteGroups(viewer: Actor | null, text: string, search: string): PaletteGroup[] {
  const listsOrganizations = showsOrganizationList(viewer) && search !== '';
  const listsPeople = !!viewer && mayListPeople(viewer) && search !== '';
  const readsLedger = !!viewer && mayViewBilling(viewer);

  const organizations = useQuery({
    ...organizationQueries.list({ view: 'descendants', search, page_size: ORG_PAGE_SIZE }),
    enabled: listsOrganizations,
  });
  // People of the whole subtree where the viewer may read the organizations below; else its own.
  const people = useQuery({
    ...userQueries.list({
      search,
      page_size: PALETTE_RESULTS,
      ...(showsOrganizationList(viewer) && mayViewOrganization(viewer) ? { include_subtree: 'true' as const } : {}),
    }),
    enabled: listsPeople,
  });
  const ledger = useQuery({ ...creditQueries.recent(viewer?.organization.id ?? ''), enabled: readsLedger });

  const groups: PaletteGroup[] = [];
  const pages = navItemsFor(viewer).filter((item) => matches(item.label, text));
  groups.push({
    key: 'pages',
    label: t.groups.pages,
    items: pages.map((item) => ({ key: `page-${item.to}`, label: item.label, to: item.to })),
  });

  // Server results are shown only for the text as typed now, never for an earlier search (nor the list's kept previous page).
  const current = search !== '' && search === text;
  if (listsOrganizations && text !== '' && viewer) {
    const rows = current && organizations.data && !organizations.isPlaceholderData ? organizations.data.organizations : [];
    groups.push({
      key: 'organizations',
      label: t.groups.organizations,
      pending: !current || organizations.isFetching,
      items: rows
        .filter((org) => mayReadOrganization(viewer, org))
        .slice(0, PALETTE_RESULTS)
        .map((org) => ({ key: `org-${org.id}`, label: org.name, detail: ORG_TYPE_LABELS[org.org_type], to: `${PATHS.orgs}/${org.id}` })),
    });
  }
  if (listsPeople && text !== '' && viewer) {
    const rows = current && people.data && !people.isPlaceholderData ? people.data.users : [];
    groups.push({
      key: 'people',
      label: t.groups.people,
      pending: !current || people.isFetching,
      items: rows
        .filter((person) => mayViewPerson(viewer, person))
        .map((person) => ({
          key: `person-${person.id}`,
          label: fullName(person) || person.email,
          // Beyond the own organization, where the person belongs.
          detail: person.organization_id === viewer.organization.id ? person.email : `${person.email} · ${person.organization.name}`,
          to: `${PATHS.users}/${person.id}`,
        })),
    });
  }
  if (readsLedger) {
    const entries = (ledger.data?.entries ?? []).filter((entry) => matches(entry.description, text));
    groups.push({
      key: 'ledger',
      label: t.groups.ledger,
      items: entries.map((entry) => ({
        key: `entry-${entry.id}`,
        label: entry.description,
        detail: `${formatCredits(entry.amount)} · ${formatDateTime(entry.created_at)}`,
        to: ledgerHref(),
      })),
    });
  }
  return groups.filter((group) => group.items.length > 0 || group.pending);
}

/**
 * The palette's search field and results, mounted while the dialog is open. What is typed is
 * the shell's (`typed`, empty at each opening), so keys pressed while this chunk loaded are
 * kept. Each result is a link of the console (in the role of an option), and Enter clicks the
 * chosen one: leaving goes the way of every link, unsaved-changes guard included.
 */
export default function PaletteBody({ typed, onType, onNavigate }: { typed: string; onType(text: string): void; onNavigate(): void }) {
  const viewer = useViewer();
  const ids = useId();
  const [search, setSearch] = useState('');
  const [active, setActive] = useState(0);
  const text = typed.trim();
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text), PALETTE_SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const groups = usePaletteGroups(viewer, text, search);
  const items = groups.flatMap((group) => group.items);
  const activeIndex = items.length === 0 ? -1 : Math.min(active, items.length - 1);
  const optionId = (item: PaletteItem) => `${ids}-${item.key}`;
  const activeItem = activeIndex >= 0 ? items[activeIndex] : undefined;
  const activeId = activeItem ? optionId(activeItem) : undefined;
  const pending = groups.some((group) => group.pending);

  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView?.({ block: 'nearest' });
  }, [activeId]);

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (items.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((activeIndex + step + items.length) % items.length);
    } else if (event.key === 'Enter' && activeId) {
      event.preventDefault();
      document.getElementById(activeId)?.click();
    }
  }

  const positionOf = new Map(items.map((item, position) => [item.key, position]));
  return (
    <>
      <PaletteField
        role="combobox"
        aria-expanded={items.length > 0}
        aria-controls={`${ids}-list`}
        aria-autocomplete="list"
        aria-activedescendant={activeId}
        value={typed}
        onChange={(event) => {
          onType(event.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
      />
      <div id={`${ids}-list`} role="listbox" aria-label={t.resultsLabel} className="max-h-[min(24rem,60vh)] overflow-y-auto p-2">
        {groups.map((group) => (
          <div key={group.key} role="group" aria-labelledby={`${ids}-${group.key}`} className="pb-2 last:pb-0">
            <div id={`${ids}-${group.key}`} className="px-2 py-1.5 text-xs font-medium text-muted-foreground">
              {group.label}
            </div>
            {group.items.map((item) => {
              const position = positionOf.get(item.key) ?? -1;
              const selected = position === activeIndex;
              return (
                // Focus stays in the field (aria-activedescendant); a tap or click opens the item.
                <Link
                  key={item.key}
                  to={item.to}
                  id={optionId(item)}
                  role="option"
                  aria-selected={selected}
                  tabIndex={-1}
                  onMouseDown={(event) => event.preventDefault()}
                  onMouseMove={() => setActive(position)}
                  onClick={onNavigate}
                  className={cn(
                    'flex min-w-0 cursor-pointer flex-col rounded-md px-2 py-2 text-sm',
                    selected && 'bg-accent text-accent-foreground',
                  )}
                >
                  <span className="truncate font-medium">{item.label}</span>
                  {item.detail && <span className="truncate text-xs text-muted-foreground">{item.detail}</span>}
                </Link>
              );
            })}
            {group.pending && group.items.length === 0 && <p className="px-2 py-2 text-sm text-muted-foreground">{t.searching}</p>}
          </div>
        ))}
        {groups.length === 0 && <p className="px-2 py-6 text-center text-sm text-muted-foreground">{t.noResults}</p>}
      </div>
      <p className="sr-only" aria-live="polite">
        {text === '' ? '' : pending ? t.searching : items.length === 0 ? t.noResults : t.resultCount(items.length)}
      </p>
    </>
  );
}
