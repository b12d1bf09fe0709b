import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

export interface PatchOptions {
  /** Replace the current history entry instead of adding one: for text typed into a field. */
  replace?: boolean;
}

/**
 * The page's search parameters, and a function that changes some of them (a value sets one,
 * an empty or missing value removes it). Each change adds a history entry, so Back restores
 * the list as it was; text typed into a search field replaces the entry instead, so Back
 * does not step through every pause in the typing.
 */
export function useSearchPatch() {
  const [params, setParams] = useSearchParams();
  const update = useCallback(
    (patch: Record<string, string | undefined>, { replace = false }: PatchOptions = {}) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [name, value] of Object.entries(patch)) {
            if (value) next.set(name, value);
            else next.delete(name);
          }
          return next;
        },
        { replace },
      ),
    [setParams],
  );
  return [params, update] as const;
}
