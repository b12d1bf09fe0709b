import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { organizationQueries } from '@/api/organizations';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { organizationCrumbs } from '@/components/organization-trail';
import { orgBaseOf } from '@/lib/org-base';
import { pageTitleOf } from './page-title';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * On an organization's pages: the trail from the viewer's own organization down to it (as
 * the server names it: nothing above their own), then the page under it (Billing, Edit…).
 * It never asks the server itself: it shows the organization the page has read (every page
 * under an organization reads it), so a page that refuses before reading sends nothing, and
 * while the page loads, or when its load fails (the page says why), there is no trail.
 */
export function OrganizationBreadcrumbs() {
  const { pathname } = useLocation();
  const base = orgBaseOf(pathname);
  const [area, id, subpage] = pathname.split('/').filter(Boolean);
  const onOrganization = `/${area}` === base && !!id && UUID.test(id);
  const query = useQuery({ ...organizationQueries.detail(id ?? ''), enabled: false });
  if (!onOrganization || !query.data) return null;

  const items = organizationCrumbs(query.data, base, subpage ? pageTitleOf(pathname) : null);
  // The organization's own page with nothing above it (the viewer's own) needs no trail.
  if (items.length < 2) return null;
  return <Breadcrumbs items={items} />;
}
