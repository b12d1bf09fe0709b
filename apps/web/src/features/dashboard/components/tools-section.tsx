import { type OrgType } from '@console/domain';
import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { useViewer } from '@/lib/use-viewer';
import { dashboardTools } from '../widgets';
import { MESSAGES } from '../wording';

/** The tools of an organization type, each a link to the page that does the job. */
export function ToolsSection({ orgType }: { orgType: OrgType }) {
  const tools = dashboardTools(orgType, useViewer());
  return (
    <section aria-labelledby="dashboard-tools" className="space-y-3">
      <h2 id="dashboard-tools" className="text-lg font-semibold">
        {MESSAGES.dashboardPages.tools}
      </h2>
      <ul className="grid gap-3 sm:grid-cols-3">
        {tools.map((tool) => (
          <li key={tool.label}>
            <Link
              to={tool.to}
              className="flex h-full items-start justify-between gap-3 rounded-xl border bg-card p-4 shadow-sm transition-colors hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
            >
              <span className="grid gap-1">
                <span className="font-medium">{tool.label}</span>
                <span className="text-sm text-muted-foreground">{tool.description}</span>
              </span>
              <ArrowRight className="mt-1 size-4 shrink-0 text-muted-foreground" aria-hidden />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
