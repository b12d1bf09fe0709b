import {
  AGENT_LIMIT_STANDING_LABELS,
  ORG_ATTENTION_LABELS,
  ORG_TYPE_LABELS,
  PAGING,
  UI,
  type OrganizationListItem,
  type OrgSortKey,
} from '@console/domain';
import { useId } from 'react';
import { Link } from 'react-router';
import { SortableHead, SortSelect, type SortState } from '@/components/sortable-head';
import { StackedCard } from '@/components/stacked-card';
import { Badge } from '@/components/ui/badge';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatCredits, formatDecimal } from '@/lib/credit-format';
import { useMediaQuery } from '@/lib/use-media-query';
import { OrgStatusBadge } from './org-status-badge';
import { formatDate } from '@/lib/dates';
import { MESSAGES } from '../wording';

/** The columns the server sorts by, with their names. */
export const ORG_SORT_COLUMNS: readonly { key: OrgSortKey; label: string }[] = [
  { key: 'name', label: 'Name' },
  { key: 'created', label: 'Created' },
  { key: 'balance', label: 'Credit balance' },
  { key: 'limit', label: 'Activated agent limit' },
];
/** The day an organization was created, in the viewer's time zone. */
const columnLabel = (key: OrgSortKey) => ORG_SORT_COLUMNS.find((column) => column.key === key)!.label;

/**
 * The balance, the threshold it is held against, "Low balance" when it is below it, and "Cap
 * reached" with the events refused this month when a spend cap stops it.
 */
function BalanceStanding({ organization }: { organization: OrganizationListItem }) {
  const cap = organization.cap_standing;
  return (
    <span className="inline-flex flex-col items-end gap-1">
      <span className="tabular-nums">{formatCredits(organization.credit_balance)}</span>
      <span className="text-xs text-muted-foreground tabular-nums">
        alert below {formatDecimal(organization.organization_billing_settings.low_balance_threshold)}
      </span>
      {organization.low_balance && <Badge variant="destructive">Low balance</Badge>}
      {cap.reached && (
        <>
          <Badge variant="destructive">{ORG_ATTENTION_LABELS.cap_reached}</Badge>
          <span className="text-xs text-muted-foreground tabular-nums">
            {MESSAGES.spendPages.capRefusedThisMonth(cap.refused_this_month)}
          </span>
        </>
      )}
    </span>
  );
}

/**
 * The active agents against the limit ("4 of 5 active") with "At limit" or "Near limit";
 * the limit alone for a viewer who may not read the agents.
 */
function AgentStanding({ organization }: { organization: OrganizationListItem }) {
  const standing = organization.agent_limit_standing;
  if (organization.active_agent_count === null) return <span className="tabular-nums">{organization.activated_agent_limit}</span>;
  return (
    <span className="inline-flex flex-col items-end gap-1">
      <span className="tabular-nums">
        {organization.active_agent_count} of {organization.activated_agent_limit} active
      </span>
      {standing && <Badge variant={standing === 'at' ? 'destructive' : 'secondary'}>{AGENT_LIMIT_STANDING_LABELS[standing]}</Badge>}
    </span>
  );
}

interface OrganizationsTableProps {
  /** Names the table for assistive technology (e.g. "Child Organizations"). */
  label: string;
  organizations: OrganizationListItem[] | undefined;
  base: string;
  emptyText?: string;
  /** The list's order; with onSort, the sortable columns' headers (or, as cards, a select) change it. */
  sort?: SortState<OrgSortKey>;
  onSort?(sort: OrgSortKey): void;
  onSortChange?(state: SortState<OrgSortKey>): void;
}

/**
 * Rows of organizations: name (to the detail page), type, status, creation date, credit
 * balance against its low-balance threshold (and its spend caps when they stop it) and active
 * agents against the agent limit, each marked when it needs attention; under 768 px each row is a card with every value.
 */
export function OrganizationsTable({
  label,
  organizations,
  base,
  emptyText = 'No organizations found.',
  sort,
  onSort,
  onSortChange,
}: OrganizationsTableProps) {
  const wide = useMediaQuery(`(min-width: ${UI.narrowBreakpointPx}px)`);
  const selectId = useId();
  const sortable = sort && onSort;
  const head = (key: OrgSortKey, className?: string) =>
    sortable ? (
      <SortableHead label={columnLabel(key)} sortKey={key} state={sort} onSort={onSort} className={className} />
    ) : (
      <TableHead className={className}>{columnLabel(key)}</TableHead>
    );

  if (!wide) {
    return (
      <div className="space-y-3">
        {sort && onSortChange && <SortSelect id={`${selectId}-sort`} options={ORG_SORT_COLUMNS} state={sort} onChange={onSortChange} />}
        {!organizations ? (
          <div className="space-y-3" aria-busy>
            {Array.from({ length: 3 }, (_, i) => (
              <Skeleton key={i} className="h-28 w-full" />
            ))}
          </div>
        ) : organizations.length === 0 ? (
          <p className="rounded-md border border-dashed p-6 text-center text-sm text-muted-foreground">{emptyText}</p>
        ) : (
          <ul className="space-y-3" aria-label={label}>
            {organizations.map((organization) => (
              <StackedCard
                key={organization.id}
                title={
                  <Link to={`${base}/${organization.id}`} className="underline-offset-4 hover:underline" title={organization.name}>
                    {organization.name}
                  </Link>
                }
                fields={[
                  { label: 'Type', value: ORG_TYPE_LABELS[organization.org_type] },
                  { label: 'Status', value: <OrgStatusBadge status={organization.status} /> },
                  { label: 'Created', value: formatDate(organization.created_at) },
                  { label: 'Credit balance', value: <BalanceStanding organization={organization} /> },
                  { label: 'Activated agent limit', value: <AgentStanding organization={organization} /> },
                ]}
              />
            ))}
          </ul>
        )}
      </div>
    );
  }

  return (
    <Table aria-label={label}>
      <TableHeader>
        <TableRow>
          {head('name')}
          <TableHead>Type</TableHead>
          <TableHead>Status</TableHead>
          {head('created')}
          {head('balance', 'text-right')}
          {head('limit', 'text-right')}
        </TableRow>
      </TableHeader>
      <TableBody aria-busy={organizations ? undefined : true}>
        {!organizations &&
          Array.from({ length: PAGING.skeletonRows }, (_, i) => (
            <TableRow key={i}>
              <TableCell colSpan={6}>
                <Skeleton className="h-5 w-full" />
              </TableCell>
            </TableRow>
          ))}
        {organizations?.length === 0 && (
          <TableRow>
            <TableCell colSpan={6} className="h-20 text-center text-muted-foreground">
              {emptyText}
            </TableCell>
          </TableRow>
        )}
        {organizations?.map((organization) => (
          <TableRow key={organization.id}>
            <TableCell className="max-w-72 truncate font-medium">
              <Link to={`${base}/${organization.id}`} className="underline-offset-4 hover:underline" title={organization.name}>
                {organization.name}
              </Link>
            </TableCell>
            <TableCell>{ORG_TYPE_LABELS[organization.org_type]}</TableCell>
            <TableCell>
              <OrgStatusBadge status={organization.status} />
            </TableCell>
            <TableCell className="tabular-nums">{formatDate(organization.created_at)}</TableCell>
            <TableCell className="text-right">
              <BalanceStanding organization={organization} />
            </TableCell>
            <TableCell className="text-right">
              <AgentStanding organization={organization} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
