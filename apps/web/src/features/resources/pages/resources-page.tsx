import { useAuth } from '@/lib/auth';
import { PATHS } from '@/lib/paths';
import { useViewer } from '@/lib/use-viewer';
import { OrganizationResources } from '../components/organization-resources';
import { MESSAGES } from '../wording';

/** /resources: the resources of the user's own organization. */
export default function ResourcesPage() {
  const { claims } = useAuth();
  const organizationId = useViewer()?.organization.id ?? null;
  if (!organizationId) {
    return (
      <section className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight">{MESSAGES.billingPages.resourcesTitle}</h1>
        <p className="text-muted-foreground">{MESSAGES.organizations.selectOrganization}</p>
      </section>
    );
  }
  return <OrganizationResources organizationId={organizationId} base={claims?.isHouseRole ? PATHS.organizations : PATHS.orgs} />;
}
