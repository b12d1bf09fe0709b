import { ORG_TYPE_LABELS, type OrgType } from '@console/domain';
import { BackLink } from '@/components/back-link';

/** Back to the organization, the page title and the organization's name and type. */
export function BillingHeader({ title, backTo, name, orgType }: { title: string; backTo: string; name?: string; orgType?: OrgType }) {
  return (
    <header className="space-y-2">
      <BackLink to={backTo} />
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      {name && (
        <p className="break-words text-muted-foreground">
          {name}
          {orgType && ` · ${ORG_TYPE_LABELS[orgType]}`}
        </p>
      )}
    </header>
  );
}
