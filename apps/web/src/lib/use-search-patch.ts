import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The page's search parameters, and a function that changes some of them in place (a
 * value sets one, an empty or missing value removes it) without adding a history entry,
 * so filters kept in the URL survive a reload and Back leaves the page.
 */
export function useSearchPatch() {
  const [params, setParams] = useSearchParams();
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
  return [params, update] as const;
}
