import { ENTRY_TYPES, type EntryType, type LedgerExportQuery } from '@console/domain';
import { addDays, format, isValid, parse, startOfDay } from 'date-fns';
import { useCallback, useMemo } from 'react';
import type { DateRange } from 'react-day-picker';
import { useSearchParams } from 'react-router';

/**
 * A picked range of local days as the API's bounds: `from` is the start of the first day
 * (inclusive), `to` the start of the day after the last (exclusive), so the end date is
 * inclusive. A range with one day covers that day.
 */
export function dateRangeBounds(range: DateRange | undefined): { from?: string; to?: string } {
  if (!range?.from) return {};
  const last = range.to ?? range.from;
  return { from: startOfDay(range.from).toISOString(), to: addDays(startOfDay(last), 1).toISOString() };
}

const DAY = 'yyyy-MM-dd';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function dayOf(value: string | null): Date | undefined {
  if (!value) return undefined;
  const date = parse(value, DAY, new Date());
  return isValid(date) && format(date, DAY) === value ? date : undefined;
}

function isEntryType(value: string | null): value is EntryType {
  return (ENTRY_TYPES as readonly (string | null)[]).includes(value);
}

/**
 * The ledger's filters, kept in the URL (`type`, `agent`, and the local days `from` and
 * `to`) so a reload, a shared link or Back shows the same entries. A malformed value is
 * ignored rather than sent.
 */
export function useLedgerFilters() {
  const [params, setParams] = useSearchParams();
  const type = params.get('type');
  const agent = params.get('agent');
  const fromText = params.get('from');
  const toText = params.get('to');

  const entryType: EntryType | 'all' = isEntryType(type) ? type : 'all';
  const agentTypeId = agent && UUID.test(agent) ? agent : null;
  const range = useMemo<DateRange | undefined>(() => {
    const from = dayOf(fromText);
    return from ? { from, to: dayOf(toText) } : undefined;
  }, [fromText, toText]);

  const filters = useMemo<LedgerExportQuery>(
    () => ({
      ...(entryType === 'all' ? {} : { entry_type: entryType }),
      ...(agentTypeId ? { agent_type_id: agentTypeId } : {}),
      ...dateRangeBounds(range),
    }),
    [entryType, agentTypeId, range],
  );

  const update = useCallback(
    (patch: Record<string, string | undefined>) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [name, value] of Object.entries(patch)) {
            if (value) next.set(name, value);
            else next.delete(name);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  return {
    entryType,
    agentTypeId,
    range,
    filters,
    setEntryType: (value: EntryType | 'all') => update({ type: value === 'all' ? undefined : value }),
    setAgentTypeId: (value: string | null) => update({ agent: value ?? undefined }),
    setRange: (value: DateRange | undefined) =>
      update({ from: value?.from ? format(value.from, DAY) : undefined, to: value?.from && value.to ? format(value.to, DAY) : undefined }),
  };
}
