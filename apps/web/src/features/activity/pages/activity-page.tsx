import { ACTIVITY_ACTIONS, ACTIVITY_ACTION_LABELS, UI } from '@console/domain';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Download, X } from 'lucide-react';
import { toast } from 'sonner';
import { activityQueries, useExportActivity } from '@/api/activity';
import { DateRangePicker } from '@/components/date-range-picker';
import { LoadingRows } from '@/components/loading-rows';
import { OrganizationTrail, useReadableOrganization } from '@/components/organization-trail';
import { OrgPicker } from '@/components/organizations/org-picker';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { PageHeader } from '@/components/page-header';
import { FilterSelect } from '@/components/filter-select';
import { useMediaQuery } from '@/lib/use-media-query';
import { showsOrganizationList } from '@/lib/org-reach';
import { useViewer } from '@/lib/use-viewer';
import { ActivityCards, ActivityTable } from '../components/activity-rows';
import { useActivityFilters } from '../activity-filters';
import { MESSAGES } from '@/lib/wording';

/**
 * The activity log: who did what, when and from where, in the viewer's organization and its
 * subtree (admins; the route is gated by the same predicate the server decides with).
 */
export default function ActivityPage() {
  const f = useActivityFilters();
  const viewer = useViewer();
  // Another organization of the viewer's subtree, chosen with the selector or opened from its pages: the trail down to it.
  const viewingOther = !!f.organizationId && f.organizationId !== viewer?.organization.id;
  const viewed = useReadableOrganization(viewingOther ? f.organizationId : null);
  const log = useInfiniteQuery(activityQueries.list(f.filters));
  const exporter = useExportActivity();
  const wide = useMediaQuery(`(min-width: ${UI.narrowBreakpointPx}px)`);
  const events = log.data?.pages.flatMap((page) => page.events) ?? [];

  function exportCsv() {
    exporter.mutate(f.filters, {
      onSuccess: () => toast.success('Activity exported'),
      onError: (error) => toast.error('Failed to export the activity', { description: error.message }),
    });
  }

  return (
    <section className="space-y-6">
      {viewingOther && <OrganizationTrail organization={viewed} page={MESSAGES.shell.nav.activity} />}
      <PageHeader
        title={MESSAGES.shell.nav.activity}
        subtitle="Who did what, and when, in your organization and the organizations below it."
      >
        <Button variant="outline" onClick={exportCsv} disabled={exporter.isPending}>
          <Download aria-hidden />
          Export CSV
        </Button>
      </PageHeader>

      <Card>
        <CardContent className="space-y-4">
          <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end" role="group" aria-label="Filters">
            {showsOrganizationList(viewer) && (
              <div className="grid gap-2">
                <Label htmlFor="activity-organization">Organization</Label>
                <OrgPicker id="activity-organization" label="Organization" value={f.organizationId} onChange={f.setOrganizationId} />
              </div>
            )}
            <div className="flex items-center gap-2 sm:pb-2">
              <Switch id="activity-subtree" checked={f.includeSubtree} onCheckedChange={f.setIncludeSubtree} />
              <Label htmlFor="activity-subtree">Include organizations below</Label>
            </div>
            <div className="grid gap-2 sm:w-56">
              <Label htmlFor="activity-action">Action</Label>
              <FilterSelect
                id="activity-action"
                value={f.action}
                onChange={f.setAction}
                all="All actions"
                options={ACTIVITY_ACTIONS}
                labelOf={(action) => ACTIVITY_ACTION_LABELS[action]}
              />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="activity-date-range">Date range</Label>
              <DateRangePicker id="activity-date-range" value={f.range} onChange={f.setRange} />
            </div>
            {f.actorId && (
              <div className="flex items-center gap-1 rounded-md border px-2 py-1 text-sm sm:mb-0.5">
                <span>Person: {f.actorName}</span>
                <Button variant="ghost" size="icon" className="size-6" aria-label="Show everyone" onClick={() => f.setActor(null)}>
                  <X aria-hidden />
                </Button>
              </div>
            )}
          </div>

          {log.isPending ? (
            <LoadingRows />
          ) : log.isError && events.length === 0 ? (
            <QueryError error={log.error} title="Failed to load the activity" onRetry={log.refetch} />
          ) : events.length === 0 ? (
            <div className="rounded-md border border-dashed p-8 text-center">
              <p className="font-medium">No activity found</p>
              <p className="text-sm text-muted-foreground">Nothing recorded matches these filters.</p>
            </div>
          ) : wide ? (
            <ActivityTable events={events} onActor={f.setActor} />
          ) : (
            <ActivityCards events={events} onActor={f.setActor} />
          )}

          {log.hasNextPage && (
            <div className="flex justify-center">
              <Button variant="outline" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
                {log.isFetchingNextPage ? 'Loading…' : MESSAGES.creditPages.loadMore}
              </Button>
            </div>
          )}
        </CardContent>
      </Card>
    </section>
  );
}
