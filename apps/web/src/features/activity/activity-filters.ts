import { isActivityAction, type ActivityAction, type ActivityExportQuery } from '@console/domain';
import { useMemo } from 'react';
import type { DateRange } from 'react-day-picker';
import { UUID_PATTERN, dateRangeBounds, rangeOf, rangeParams } from '@/lib/date-range';
import { useSearchPatch } from '@/lib/use-search-patch';

/**
 * The activity log's filters, kept in the URL: `org` (an organization of the viewer's
 * subtree), `subtree=0` for that organization alone, `actor` (a person's id, with
 * `actor_name` to show it), `action`, and the local days `from` and `to`. A malformed value
 * is ignored rather than sent.
 */
export function useActivityFilters() {
  const [params, update] = useSearchPatch();
  const org = params.get('org');
  const actor = params.get('actor');
  const action = params.get('action');
  const fromText = params.get('from');
  const toText = params.get('to');

  const organizationId = org && UUID_PATTERN.test(org) ? org : null;
  const includeSubtree = params.get('subtree') !== '0';
  const actorId = actor && UUID_PATTERN.test(actor) ? actor : null;
  const actorName = actorId ? (params.get('actor_name') ?? 'Selected person') : null;
  const chosenAction: ActivityAction | null = action && isActivityAction(action) ? action : null;
  const range = useMemo<DateRange | undefined>(() => rangeOf(fromText, toText), [fromText, toText]);

  const filters = useMemo<ActivityExportQuery>(
    () => ({
      ...(organizationId ? { organization_id: organizationId } : {}),
      ...(includeSubtree ? {} : { include_subtree: 'false' as const }),
      ...(actorId ? { actor_user_id: actorId } : {}),
      ...(chosenAction ? { action: chosenAction } : {}),
      ...dateRangeBounds(range),
    }),
    [organizationId, includeSubtree, actorId, chosenAction, range],
  );

  return {
    organizationId,
    includeSubtree,
    actorId,
    actorName,
    action: chosenAction,
    range,
    filters,
    setOrganizationId: (value: string | null) => update({ org: value ?? undefined }),
    setIncludeSubtree: (value: boolean) => update({ subtree: value ? undefined : '0' }),
    setActor: (value: { id: string; name: string } | null) => update({ actor: value?.id, actor_name: value?.name }),
    setAction: (value: ActivityAction | null) => update({ action: value ?? undefined }),
    setRange: (value: DateRange | undefined) => update(rangeParams(value)),
  };
}
