/**
 * How often an open page asks again for the figures that change without the viewer doing
 * anything (agent runtimes report usage, other people move credits): balances, the ledger's
 * newest entries, agent activations and usage. Only while the tab is visible: a hidden tab
 * pauses, and TanStack Query asks again when it is shown (refetchOnWindowFocus).
 */
export const LIVE_REFRESH_MS = 15_000;

/** The query options of a live figure. */
export const LIVE = { refetchInterval: LIVE_REFRESH_MS, refetchIntervalInBackground: false } as const;
