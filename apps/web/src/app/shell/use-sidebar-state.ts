import { UI } from '@console/domain';
import { useCallback, useState } from 'react';

/** The wide-screen sidebar's open state, kept in local storage as "true"/"false" (default open). */
export function useSidebarState(): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(() => localStorage.getItem(UI.sidebarStorageKey) !== 'false');
  const update = useCallback((next: boolean) => {
    localStorage.setItem(UI.sidebarStorageKey, String(next));
    setOpen(next);
  }, []);
  return [open, update];
}
