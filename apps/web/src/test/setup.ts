import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, vi } from 'vitest';
import { sessionStore } from '@/lib/session-store';
import { assertNoContractProblems } from './contract-check';

// Pages are lazy chunks: their first import in a file may take over a second on a busy machine.
configure({ asyncUtilTimeout: 5000 });

// jsdom has no layout: media queries answer from window.innerWidth, which tests set.
window.matchMedia = (query: string): MediaQueryList => {
  const minWidth = /\(min-width:\s*(\d+)px\)/.exec(query);
  return {
    matches: minWidth ? window.innerWidth >= Number(minWidth[1]) : false,
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  };
};

// Radix menus measure their trigger with ResizeObserver, which jsdom lacks.
globalThis.ResizeObserver = class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

afterEach(() => {
  cleanup();
  // Sonner keeps toasts in a module-level store and replays them to the next <Toaster>.
  toast.dismiss();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  localStorage.clear();
  sessionStorage.clear();
  sessionStore.reset();
  document.documentElement.className = '';
  window.innerWidth = 1024;
  // Last, so a failure here leaves the rest cleaned up for the next test.
  assertNoContractProblems();
});
