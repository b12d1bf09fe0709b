import { useCallback, useEffect } from 'react';
import { useBlocker, type BlockerFunction } from 'react-router';
import { MESSAGES } from '@/lib/wording';

/** Whether a click opens the link in this tab (not a new tab or window, not a download). */
function opensHere(event: MouseEvent, anchor: HTMLAnchorElement): boolean {
  if (event.defaultPrevented || event.button !== 0) return false;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false;
  if (anchor.hasAttribute('download')) return false;
  const target = anchor.getAttribute('target');
  return !target || target === '_self';
}

/**
 * While a form holds edits not yet saved, leaving it is asked first: following a link of the
 * console (the navigation, breadcrumbs, Back, Cancel) and the browser's own Back and Forward
 * ask in a confirmation, and closing or reloading the tab asks through the browser's own
 * question. Saving navigates in code and is never asked.
 */
export function useUnsavedChangesGuard(dirty: boolean, message: string = MESSAGES.forms.unsavedChanges): void {
  // The browser's Back and Forward (a POP): the router holds them until the person answers.
  const leavesByHistory = useCallback<BlockerFunction>(
    ({ historyAction, currentLocation, nextLocation }) =>
      dirty &&
      historyAction === 'POP' &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
    [dirty],
  );
  const blocker = useBlocker(leavesByHistory);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (window.confirm(message)) blocker.proceed();
    else blocker.reset();
  }, [blocker, message]);

  useEffect(() => {
    if (!dirty) return;
    function onClick(event: MouseEvent) {
      const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!(anchor instanceof HTMLAnchorElement) || !opensHere(event, anchor)) return;
      const to = new URL(anchor.href, window.location.href);
      // A link to this very page (a tab, an anchor) leaves nothing.
      if (to.origin === window.location.origin && to.pathname === window.location.pathname && to.search === window.location.search) return;
      if (window.confirm(message)) return;
      event.preventDefault();
      event.stopPropagation();
    }
    function onBeforeUnload(event: BeforeUnloadEvent) {
      event.preventDefault();
    }
    // Capture: asked before the router's own handler of the link runs.
    document.addEventListener('click', onClick, true);
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      document.removeEventListener('click', onClick, true);
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [dirty, message]);
}
