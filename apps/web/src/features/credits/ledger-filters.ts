import { ENTRY_TYPES, type EntryType, type LedgerExportQuery } from '@console/domain';
import { useMemo } from 'react';
import type { DateRange } from 'react-day-picker';
import { UUID_PATTERN, dateRangeBounds, rangeOf, rangeParams } from '@/lib/date-range';
import { useSearchPatch } from '@/lib/use-search-patch';

export { dateRangeBounds } from '@/lib/date-range';

function isEntryType(value: string | null): value is EntryType {
  return (ENTRY_TYPES as readonly (string | null)[]).includes(value);
}

const AMOUNT = /^-?\d{1,12}(\.\d{1,2})?$/;

/**
 * The ledger's filters, kept in the URL (`org`, `type`, `agent`, the local days `from` and
 * `to`, `min` and `max` amounts and the text `q`) so a reload, a shared link or Back shows
 * the same entries. A malformed value is ignored rather than sent.
 */
export function useLedgerFilters() {
  const [params, update] = useSearchPatch();
  const org = params.get('org');
  const type = params.get('type');
  const agent = params.get('agent');
  const fromText = params.get('from');
  const toText = params.get('to');
  const minText = params.get('min');
  const maxText = params.get('max');
  const q = params.get('q')?.trim() ?? '';

  const organizationId = org && UUID_PATTERN.test(org) ? org : null;
  const entryType: EntryType | 'all' = isEntryType(type) ? type : 'all';
  const agentTypeId = agent && UUID_PATTERN.test(agent) ? agent : null;
  const amountMin = minText && AMOUNT.test(minText) ? minText : null;
  const amountMax = maxText && AMOUNT.test(maxText) ? maxText : null;
  const range = useMemo<DateRange | undefined>(() => rangeOf(fromText, toText), [fromText, toText]);

  const filters = useMemo<LedgerExportQuery>(
    () => ({
      ...(organizationId ? { organization_id: organizationId } : {}),
      ...(entryType === 'all' ? {} : { entry_type: entryType }),
      ...(agentTypeId ? { agent_type_id: agentTypeId } : {}),
      ...dateRangeBounds(range),
      ...(amountMin ? { amount_min: Number(amountMin) } : {}),
      ...(amountMax ? { amount_max: Number(amountMax) } : {}),
      ...(q ? { q } : {}),
    }),
    [organizationId, entryType, agentTypeId, range, amountMin, amountMax, q],
  );

  return {
    organizationId,
    entryType,
    agentTypeId,
    range,
    amountMin: minText ?? '',
    amountMax: maxText ?? '',
    q: params.get('q') ?? '',
    filters,
    setOrganizationId: (value: string | null) => update({ org: value ?? undefined }),
    setEntryType: (value: EntryType | 'all') => update({ type: value === 'all' ? undefined : value }),
    setAgentTypeId: (value: string | null) => update({ agent: value ?? undefined }),
    setRange: (value: DateRange | undefined) => update(rangeParams(value)),
    // Typed text replaces the history entry; every other change adds one.
    setAmountMin: (value: string) => update({ min: value.trim() || undefined }, { replace: true }),
    setAmountMax: (value: string) => update({ max: value.trim() || undefined }, { replace: true }),
    setQ: (value: string) => update({ q: value || undefined }, { replace: true }),
  };
}
