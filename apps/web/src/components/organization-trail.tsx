import { mayReadOrganization, type OrganizationRef } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { organizationQueries } from '@/api/organizations';
import { Breadcrumbs, type Crumb } from '@/components/breadcrumbs';
import { useAuth } from '@/lib/auth';
import { useOrgBase, type OrgBase } from '@/lib/org-base';
import { useViewer } from '@/lib/use-viewer';

/** An organization as a trail shows it: its name and those from the reader's own down to its parent, top first. */
export interface TrailOrganization extends OrganizationRef {
  ancestors: OrganizationRef[];
  /** Its parent, when it was read (another organization than the viewer's own). */
  parent_org_id?: string | null;
}

/**
 * The console's one way of building a trail: the organizations from the reader's own (the
 * server names none above it) down to this one, each leading to its page under `base`, then
 * the page shown under it, if any, as the last crumb (not a link).
 */
export function organizationCrumbs(organization: TrailOrganization, base: OrgBase, page?: string | null): Crumb[] {
  const items: Crumb[] = [
    ...organization.ancestors.map((ancestor) => ({ label: ancestor.name, to: `${base}/${ancestor.id}` })),
    { label: organization.name, to: `${base}/${organization.id}` },
  ];
  if (page) items.push({ label: page });
  return items;
}

/**
 * An organization for a trail or a label. The viewer's own has nothing above it, so it is
 * built without a request from what is known of it (`known`, else the session). Another one
 * is read through the shared detail query (a page reading it too sends one request) and only
 * when the viewer may read it, as the server decides (mayReadOrganization), so the console
 * never asks what would be refused. Null while it loads, when it may not be read, or when the
 * read fails: whoever shows it then shows nothing rather than an error.
 */
export function useReadableOrganization(organizationId: string | null | undefined, known?: OrganizationRef): TrailOrganization | null {
  const viewer = useViewer();
  const { user, claims } = useAuth();
  const own = !!viewer && !!organizationId && organizationId === viewer.organization.id;
  const readable = !!viewer && !!organizationId && !own && mayReadOrganization(viewer, { id: organizationId });
  const query = useQuery({ ...organizationQueries.detail(organizationId ?? ''), enabled: readable });
  if (own) {
    const name =
      (known?.id === organizationId ? known.name : null) ??
      (user?.organization.id === organizationId ? user.organization.name : null) ??
      claims?.organization_name ??
      null;
    return name === null ? null : { id: organizationId, name, ancestors: [] };
  }
  if (!readable || !query.data) return null;
  return { id: query.data.id, name: query.data.name, ancestors: query.data.ancestors, parent_org_id: query.data.parent_org_id };
}

/** The trail down to an organization, then the page shown under it; nothing while the organization is unknown. */
export function OrganizationTrail({ organization, page }: { organization: TrailOrganization | null; page: string }) {
  const base = useOrgBase();
  if (!organization) return null;
  return <Breadcrumbs items={organizationCrumbs(organization, base, page)} />;
}
