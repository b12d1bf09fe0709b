import { ORG_TYPE_LABELS, PAGING, type Organization } from '@console/domain';
import { Link } from 'react-router';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatCredits } from '@/lib/credit-format';
import { OrgStatusBadge } from './OrgStatusBadge';

interface OrganizationsTableProps {
  /** Names the table for assistive technology (e.g. "Child Organizations"). */
  label: string;
  organizations: Organization[] | undefined;
  base: string;
  emptyText?: string;
}

/** Rows of organizations: name (to the detail page), type, status, credit balance and agent limit. */
export function OrganizationsTable({ label, organizations, base, emptyText = 'No organizations found.' }: OrganizationsTableProps) {
  return (
    <Table aria-label={label}>
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead>Type</TableHead>
          <TableHead>Status</TableHead>
          <TableHead className="text-right">Credit balance</TableHead>
          <TableHead className="text-right">Activated agent limit</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody aria-busy={organizations ? undefined : true}>
        {!organizations &&
          Array.from({ length: PAGING.skeletonRows }, (_, i) => (
            <TableRow key={i}>
              <TableCell colSpan={5}>
                <Skeleton className="h-5 w-full" />
              </TableCell>
            </TableRow>
          ))}
        {organizations?.length === 0 && (
          <TableRow>
            <TableCell colSpan={5} className="h-20 text-center text-muted-foreground">
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
            <TableCell className="text-right tabular-nums">{formatCredits(organization.credit_balance)}</TableCell>
            <TableCell className="text-right tabular-nums">{organization.activated_agent_limit}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
