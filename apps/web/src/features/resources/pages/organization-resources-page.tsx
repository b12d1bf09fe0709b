import { useParams } from 'react-router';
import { useOrgBase } from '@/lib/org-base';
import { OrganizationResources } from '../components/organization-resources';

/** {base}/:id/resources. */
export default function OrganizationResourcesPage() {
  const { id = '' } = useParams();
  const base = useOrgBase();
  return <OrganizationResources key={id} organizationId={id} base={base} />;
}
