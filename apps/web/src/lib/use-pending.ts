import { useCallback, useState } from 'react';

/**
 * Whether a form's own action is under way, for one that runs more than a single mutation (a
 * browser prompt between two calls, say) or an action handed in by its owner. `track` marks it
 * under way until the action settles, whatever its outcome.
 */
export function usePending(): [pending: boolean, track: (action: () => Promise<void>) => Promise<void>] {
  const [pending, setPending] = useState(false);
  const track = useCallback(async (action: () => Promise<void>) => {
    setPending(true);
    try {
      await action();
    } finally {
      setPending(false);
    }
  }, []);
  return [pending, track];
}
