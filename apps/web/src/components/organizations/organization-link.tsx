import { mayReadOrganization } from '@console/domain';
import { Link } from 'react-router';
import { PATHS } from '@/lib/paths';
import { useViewer } from '@/lib/use-viewer';
import { cn } from '@/lib/utils';

interface OrganizationLinkProps {
  organization: { id: string; name: string };
  /** Where the name leads; the organization's page by default. */
  to?: string;
  className?: string;
}

/**
 * An organization's name, a link when the viewer may open it (`mayReadOrganization`, as the
 * server decides) and plain text otherwise, so no name leads to a refusal.
 */
export function OrganizationLink({ organization, to, className }: OrganizationLinkProps) {
  const viewer = useViewer();
  const classes = cn('font-medium wrap-anywhere', className);
  if (!viewer || !mayReadOrganization(viewer, organization)) {
    return (
      <span className={classes} title={organization.name}>
        {organization.name}
      </span>
    );
  }
  return (
    <Link to={to ?? `${PATHS.orgs}/${organization.id}`} className={cn(classes, 'hover:underline')} title={organization.name}>
      {organization.name}
    </Link>
  );
}
