/**
 * How often an open page asks again for the figures that change without the viewer doing
 * anything (agent runtimes report usage, other people move credits): balances, the ledger's
 * newest entries, agent activations and usage. Only while the tab is visible: a hidden tab
 * pauses, and TanStack Query asks again when it is shown (refetchOnWindowFocus).
 */
export const LIVE_REFRESH_MS = 15_000;

/** The query options of a live figure. */
export const LIVE = { refetchInterval: LIVE_REFRESH_MS, refetchIntervalInBackground: false } as const;

/**
 * How soon a live figure is asked again while it is about to move by itself (a webhook delivery
 * waiting for its attempt, which the server makes within seconds).
 */
export const SETTLING_REFRESH_MS = 3_000;

/** The query options of a live figure asked again sooner while `settling` says its data is about to move. */
export function liveWhile<Data>(settling: (data: Data) => boolean) {
  return {
    refetchInterval: (query: { state: { data: Data | undefined } }) =>
      query.state.data !== undefined && settling(query.state.data) ? SETTLING_REFRESH_MS : LIVE_REFRESH_MS,
    refetchIntervalInBackground: false,
  } as const;
}
