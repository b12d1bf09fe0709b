import {
  invitableRoles,
  mayManageInvitationsOf,
  PAGING,
  roleLabel,
  UI,
  USER_STATUSES,
  type Invitation,
  type OrganizationFacts,
  type UserProfile,
  type UserStatus,
} from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { SearchField } from '@/components/search-field';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { invitationQueries } from '@/api/invitations';
import { userQueries } from '@/api/users';
import { QueryError } from '@/components/query-error';
import { SortableHead, SortSelect } from '@/components/sortable-head';
import { FilterSelect } from '@/components/filter-select';
import { useDebouncedText } from '@/lib/use-debounced-text';
import { useMediaQuery } from '@/lib/use-media-query';
import { useViewer } from '@/lib/use-viewer';
import type { TargetOrganization } from '../use-target-organization';
import { USER_SORT_DEFAULT_ORDER, useUserListParams, type UserListParams, type UserSortField } from '../use-user-list-params';
import { InvitationRow, UserRow } from './users-panel-rows';
import { MESSAGES } from '../wording';

const ALL = '_all';
const t = MESSAGES.teamPages;
/** Pending invitations are searched on the client, over the newest this many. */
const PENDING_FETCH = 100;
const SEARCH_DELAY_MS = 300;
/** The columns the list sorts by (the server's order; pending invitations are ordered alike here). */
const SORT_COLUMNS: readonly { key: UserSortField; label: string }[] = [
  { key: 'first_name', label: 'Name' },
  { key: 'created_at', label: 'Created' },
];

type Row = { kind: 'user'; user: UserProfile } | { kind: 'invitation'; invitation: Invitation };

interface UsersPanelProps {
  /** The organization listed; undefined lists the signed-in user's own. */
  organizationId?: string;
  /** What is known of the organization listed: its type offers the role filter, its parent decides the actions. */
  organization: TargetOrganization | null;
}

/** The organization of a row as the predicates take it: the listed one's facts when it is that one. */
function organizationOf(id: string, listed: TargetOrganization | null): Pick<OrganizationFacts, 'id' | 'parent_org_id'> {
  return { id, parent_org_id: listed?.id === id ? listed.parent_org_id : null };
}

function matches(invitation: Invitation, role: string, search: string): boolean {
  if (role !== ALL && invitation.role !== role) return false;
  if (!search) return true;
  const text = `${invitation.email} ${invitation.first_name} ${invitation.last_name}`.toLowerCase();
  return text.includes(search.toLowerCase());
}

/** Pending invitations in the list's order: by first name (missing ones last) or by when they were sent, the id breaking ties. */
function compareInvitations({ sort, order }: Pick<UserListParams, 'sort' | 'order'>) {
  const sign = order === 'asc' ? 1 : -1;
  return (a: Invitation, b: Invitation) => {
    if (sort === 'first_name' && !a.first_name !== !b.first_name) return a.first_name ? -1 : 1;
    const [x, y] = sort === 'first_name' ? [a.first_name ?? '', b.first_name ?? ''] : [a.created_at, b.created_at];
    return sign * (x.localeCompare(y) || a.id.localeCompare(b.id));
  };
}

/** Users of an organization with search, filters, paging and the row actions the viewer may take. */
export function UsersPanel({ organizationId, organization }: UsersPanelProps) {
  const viewer = useViewer();
  const wide = useMediaQuery(`(min-width: ${UI.narrowBreakpointPx}px)`);
  // Search, filters, sort and page live in the URL (`?status=pending` after an invitation is
  // sent opens the list where it shows), so Back and a reload restore the list.
  const { params, update } = useUserListParams();
  // The text goes to the URL as typed (a pause after a space keeps it); the search is trimmed.
  const [searchText, setSearchText] = useDebouncedText(params.search, (text) => update({ search: text }), SEARCH_DELAY_MS);
  const search = params.search.trim();
  const status = params.status ?? ALL;
  const role = params.role ?? ALL;
  const page = params.page;
  const sortState = { sort: params.sort, order: params.order };
  const onSort = (sort: UserSortField) =>
    update({ sort, order: sort === params.sort ? (params.order === 'asc' ? 'desc' : 'asc') : USER_SORT_DEFAULT_ORDER(sort) });
  const pendingMode = status === 'pending';
  const pageSize = PAGING.usersPageSize;

  const users = useQuery({
    ...userQueries.list({
      organization_id: organizationId,
      page,
      page_size: pageSize,
      status: status === ALL ? undefined : (status as UserStatus),
      role: role === ALL ? undefined : role,
      search: search || undefined,
      // The server's own order (newest first) is left out of the request.
      ...(params.sort === 'created_at' && params.order === 'desc' ? {} : { sort_by: params.sort, sort_order: params.order }),
    }),
    enabled: !pendingMode,
  });
  const invitations = useQuery({
    ...invitationQueries.list({ organization_id: organizationId, status: 'pending', page: 1, page_size: PENDING_FETCH }),
    enabled: pendingMode,
  });

  const view = useMemo(() => {
    if (pendingMode) {
      if (!invitations.data) return null;
      const found = invitations.data.invitations.filter((invitation) => matches(invitation, role, search)).sort(compareInvitations(params));
      const start = (page - 1) * pageSize;
      return {
        rows: found.slice(start, start + pageSize).map((invitation): Row => ({ kind: 'invitation', invitation })),
        total: found.length,
        totalPages: Math.ceil(found.length / pageSize),
        truncated: invitations.data.pagination.total > PENDING_FETCH,
      };
    }
    if (!users.data) return null;
    return {
      rows: users.data.users.map((user): Row => ({ kind: 'user', user })),
      total: users.data.pagination.total,
      totalPages: users.data.pagination.total_pages,
      truncated: false,
    };
  }, [pendingMode, invitations.data, users.data, role, search, page, pageSize, params]);

  const active = pendingMode ? invitations : users;

  // A page past the last (an old link, a shorter list) shows the last page, in place.
  const lastPage = view?.totalPages ?? 0;
  useEffect(() => {
    if (lastPage > 0 && page > lastPage) update({ page: lastPage }, { replace: true });
  }, [page, lastPage, update]);

  function goTo(next: number) {
    // Values below 1 or above the last page are ignored.
    if (!view || next < 1 || next > view.totalPages) return;
    update({ page: next });
  }

  /** A user or a pending invitation, as a table row or, stacked, as a list item. */
  const renderRow = (row: Row, stacked: boolean) =>
    row.kind === 'user' ? (
      <UserRow
        key={row.user.id}
        stacked={stacked}
        user={row.user}
        person={{
          id: row.user.id,
          role: row.user.role,
          organization: organizationOf(row.user.organization_id, organization),
        }}
      />
    ) : (
      <InvitationRow
        key={row.invitation.id}
        stacked={stacked}
        invitation={row.invitation}
        manage={!!viewer && mayManageInvitationsOf(viewer, organizationOf(row.invitation.organization_id, organization))}
      />
    );

  const from = view && view.total > 0 ? (page - 1) * pageSize + 1 : 0;
  const to = view ? Math.min(page * pageSize, view.total) : 0;

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 md:flex-row md:items-end">
        <SearchField
          id="users-search"
          className="flex-1"
          placeholder="Search by name or email"
          value={searchText}
          onValueChange={setSearchText}
        />
        <div className="grid gap-2 md:w-44">
          <Label htmlFor="users-status">Status</Label>
          <FilterSelect
            id="users-status"
            value={status === ALL ? null : (status as UserStatus)}
            onChange={(value) => update({ status: value ?? undefined })}
            all="All statuses"
            options={USER_STATUSES}
            labelOf={(value) => value.charAt(0).toUpperCase() + value.slice(1)}
          />
        </div>
        <div className="grid gap-2 md:w-56">
          <Label htmlFor="users-role">Role</Label>
          <FilterSelect
            id="users-role"
            value={role === ALL ? null : role}
            onChange={(value) => update({ role: value ?? undefined })}
            all="All roles"
            options={invitableRoles(organization?.org_type) as string[]}
            labelOf={roleLabel}
          />
        </div>
      </div>

      {active.isError && !view ? (
        <QueryError error={active.error} title={MESSAGES.users.loadFailed} onRetry={active.refetch} />
      ) : (
        <>
          {!wide && <SortSelect id="users-sort" options={SORT_COLUMNS} state={sortState} onChange={(next) => update(next)} />}
          {!wide && view ? (
            view.rows.length === 0 ? (
              <p className="rounded-md border border-dashed p-6 text-center text-sm text-muted-foreground">{MESSAGES.users.emptyState}</p>
            ) : (
              <ul className="space-y-3" aria-label={t.usersTitle}>
                {view.rows.map((row) => renderRow(row, true))}
              </ul>
            )
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <SortableHead label="Name" sortKey="first_name" state={sortState} onSort={onSort} />
                  <TableHead>Email</TableHead>
                  <TableHead>Role</TableHead>
                  <TableHead>Status</TableHead>
                  <SortableHead label="Created" sortKey="created_at" state={sortState} onSort={onSort} />
                  <TableHead className="text-right">Actions</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {!view ? (
                  Array.from({ length: PAGING.skeletonRows }, (_, index) => (
                    <TableRow key={index} aria-hidden>
                      {Array.from({ length: 6 }, (__, cell) => (
                        <TableCell key={cell}>
                          <Skeleton className="h-5 w-full" />
                        </TableCell>
                      ))}
                    </TableRow>
                  ))
                ) : view.rows.length === 0 ? (
                  <TableRow>
                    <TableCell colSpan={6} className="py-8 text-center whitespace-normal text-muted-foreground">
                      {MESSAGES.users.emptyState}
                    </TableCell>
                  </TableRow>
                ) : (
                  view.rows.map((row) => renderRow(row, false))
                )}
              </TableBody>
            </Table>
          )}
          {!view && (
            <span className="sr-only" role="status">
              Loading
            </span>
          )}
          {view && (
            <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
              <p className="text-sm text-muted-foreground" aria-live="polite">
                {t.showing(from, to, view.total)}
                {view.truncated && <> {t.newestPendingOnly(PENDING_FETCH)}</>}
              </p>
              <div className="flex gap-2">
                <Button variant="outline" size="sm" onClick={() => goTo(page - 1)} disabled={page <= 1}>
                  Previous
                </Button>
                <Button variant="outline" size="sm" onClick={() => goTo(page + 1)} disabled={page >= view.totalPages}>
                  Next
                </Button>
              </div>
            </div>
          )}
        </>
      )}
    </div>
  );
}
